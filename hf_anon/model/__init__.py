"""The model: the multi-task encoder (:mod:`~hf_anon.model.modeling`), its folder
(:mod:`~hf_anon.model.model_folder`), documents as windows (:mod:`~hf_anon.model.alignment`),
training (:mod:`~hf_anon.model.training`), thresholds (:mod:`~hf_anon.model.calibration`),
span metrics (:mod:`~hf_anon.model.metrics`), detection (:mod:`~hf_anon.model.detection`) with
its backends (:mod:`~hf_anon.model.backends`), the deterministic recognizers
(:mod:`~hf_anon.model.recognizers`), the span edges the guidelines fix
(:mod:`~hf_anon.model.decoding`), the base encoders (:mod:`~hf_anon.model.encoders`) and the
learned placeholder tagger (:mod:`~hf_anon.model.placeholder_tagger`).

It imports the base (:mod:`hf_anon.text`) and the corpora (:mod:`hf_anon.corpora`), never
what applies or distributes it.
"""
