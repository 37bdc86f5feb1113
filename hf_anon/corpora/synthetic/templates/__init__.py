"""The wording of synthetic decisions, as data: sentence templates and word tables.

- :mod:`~hf_anon.corpora.synthetic.templates.frame`: what every decision says, whatever
  its domain (header, rubrum, tenor, requests, evidence, reasons, remedy, signature);
- :mod:`~hf_anon.corpora.synthetic.templates.people`: personal circumstances
  (``nat-idx``: age, career, health, family, studies);
- :mod:`~hf_anon.corpora.synthetic.templates.mietrecht` and
  :mod:`~hf_anon.corpora.synthetic.templates.verkehrsrecht`: the kinds of case of each
  domain, their facts sentence by sentence, their legal reasoning.

A template is a string with ``{field}``\\ s. Where a tuple offers several wordings of one
sentence, the generator draws one (preferring a wording the document has not used yet);
the fields are filled by the code of the same name in :mod:`hf_anon.corpora.synthetic`,
which also decides which fields are gold spans. A field at the start of a sentence gets a
capital.

The draws follow these tables: changing, adding, removing or reordering an entry changes
every synthetic corpus generated from a seed (``tests/corpora/test_synthetic.py`` pins a digest of
the first documents, so such a change is deliberate).
"""

from hf_anon.corpora.synthetic.templates import frame, mietrecht, people, verkehrsrecht

#: The template tables of each legal domain.
DOMAIN_TEMPLATES = {"mietrecht": mietrecht, "verkehrsrecht": verkehrsrecht}

__all__ = ["DOMAIN_TEMPLATES", "frame", "mietrecht", "people", "verkehrsrecht"]
