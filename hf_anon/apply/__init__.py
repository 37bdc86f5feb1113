"""Applying a model: the :class:`~hf_anon.apply.anonymize.Anonymizer` and its operators
(:mod:`~hf_anon.apply.anonymize`), topic redaction of special categories
(:mod:`~hf_anon.apply.topics`), Word files anonymized in place (:mod:`~hf_anon.apply.word`),
files and folders in one run (:mod:`~hf_anon.apply.batch`) and the evaluation report that
people review (:mod:`~hf_anon.apply.report`)."""
