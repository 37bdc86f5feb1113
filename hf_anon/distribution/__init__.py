"""Getting models and data to people: the model card (:mod:`~hf_anon.distribution.model_card`),
releases and model pushes (:mod:`~hf_anon.distribution.models`), demo Spaces
(:mod:`~hf_anon.distribution.spaces`), corpus pushes (:mod:`~hf_anon.distribution.datasets`),
what every push plans first (:mod:`~hf_anon.distribution.plans`), the pipeline saved with every
model (:mod:`~hf_anon.distribution.pipeline_code`) and Presidio
(:mod:`~hf_anon.distribution.presidio`)."""
