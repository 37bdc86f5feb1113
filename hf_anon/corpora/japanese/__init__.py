"""Japanese corpora, in one place: everything that turns Japanese precedents into training
and test data (seed 004; the guide is ``data/ja/GUIDE.md``).

- :mod:`~hf_anon.corpora.japanese.placeholders`: the courts' placeholders (``Ａ``, ``甲``,
  ``○○``), found character by character, with the label each hides;
- :mod:`~hf_anon.corpora.japanese.surrogates`: realistic values from Faker ``ja_JP`` and the
  pseudonymizer that fills placeholders with them;
- :mod:`~hf_anon.corpora.japanese.synthetic` and :mod:`~hf_anon.corpora.japanese.templates`:
  generated precedent passages with gold spans;
- :mod:`~hf_anon.corpora.japanese.precedents`: real published precedents → silver training
  documents.

The German counterparts are :mod:`hf_anon.corpora.placeholders`,
:mod:`hf_anon.corpora.surrogates` and :mod:`hf_anon.corpora.synthetic`; the other layers
keep their Japanese in one place each: :mod:`hf_anon.text.languages` (the base tables and
span edges), the language switch of :class:`~hf_anon.model.detection.SpanDetector`, and in
:mod:`hf_anon.apply.anonymize` the leak check's
:func:`~hf_anon.apply.anonymize.leakcheck.japanese_forms` with the operators' ``ja``
values (drawn from :mod:`~hf_anon.corpora.japanese.surrogates`).
"""
