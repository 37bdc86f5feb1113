"""The base of the library: text and what it means, with no model in it.

The labels and risks of the annotation guidelines (:mod:`~hf_anon.text.labels`), spans and
documents with their JSON Lines form (:mod:`~hf_anon.text.data`), names of people
(:mod:`~hf_anon.text.names`), the German word tables (:mod:`~hf_anon.text.lexicon`,
:mod:`~hf_anon.text.nouns`, :mod:`~hf_anon.text.tables`), the views of a text that detection
reads (:mod:`~hf_anon.text.views`, :mod:`~hf_anon.text.spacing`), the languages
(:mod:`~hf_anon.text.languages`) and the input files (:mod:`~hf_anon.text.readers`).
Everything above imports from here; this package imports nothing above it.
"""
