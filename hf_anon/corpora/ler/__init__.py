"""The German LER corpus (Leitner et al. 2019) as span documents in our labels.

LER comes as CoNLL files (``token TAG`` per line, IOB2, 19 fine classes, sentences
shuffled) and as raw running text (``raw/*_timex.txt``: one tokenized sentence a line,
in document order per court, with TimeML ``<TIMEX3>`` tags). Both are decisions of
seven federal courts *as published*, so most person, company and street mentions are
placeholders (``Herrn G.``, ``X GmbH``, ``A-Straße``). This package turns them into
:class:`~hf_anon.text.data.Document` objects with character spans in the labels of the
annotation guidelines (``ANNOTATION.md``), builds a placeholder key from LER's
own tags, and pseudonymizes the placeholder mentions so that a model also sees realistic
names.

Reading never drops anything silently: odd lines, unknown tags, ``I-`` without ``B-``,
unbalanced TIMEX tags, sentences not found in the raw text are repaired where the repair
is mechanical and always counted in :class:`Anomalies`.

Detokenization (tokens → natural text, characters, offsets of every token kept)
------------------------------------------------------------------------------
Tokens are joined by one space, except:

=====================================================  ===============================
rule                                                   example
=====================================================  ===============================
no space before ``, . ; : ! ? ) ] }`` (and tokens       ``G. ,`` → ``G.,``; ``9 )`` → ``9)``
starting with one of them, e.g. ``]:``)
no space after ``( [ {``                               ``( vgl.`` → ``(vgl.``
``„ ‚`` open, ``“ ‘`` close what they opened           ``„ a “`` → ``„a“``
(a ``“``/``‘`` with nothing open opens, English style,
and ``”``/``’`` close it)
``"`` and ``'`` alternate open/close in a sentence     ``" A "`` → ``"A"``
``'`` or ``’`` between letters is an apostrophe        ``Pkw ' s`` → ``Pkw's``
``/`` is glued on both sides                           ``BFH / NV`` → ``BFH/NV``
``<`` and a later ``>`` pair up like brackets          ``105 < 108 >`` → ``105 <108>``
``…``/``...`` is glued to a placeholder letter before  ``R … GmbH`` → ``R… GmbH``
a token ``-x`` (hyphen + letter/digit) is glued to     ``A. -Zentrum`` → ``A.-Zentrum``,
the token before, unless that is a conjunction, a      ``100 % -ige`` → ``100 %-ige``,
comma or an opening bracket                            but ``oder -anlässe`` stays
a token ``.1`` (dot + digit) is glued                  ``M1.1 .1`` → ``M1.1.1``
=====================================================  ===============================

Kept with spaces, deliberately: ``%`` and ``€`` after a number (German typography,
DIN 5008: ``40 %``), ``§ 7`` and ``§§ 1, 2``, a dash `` - `` between words, an unpaired
``<`` or ``>`` (a comparison: ``Beatmung > 95``), split dates ``16. 6. 2017`` (the
tokenizer split ``16.6.2017``; nothing in a token says so reliably). LER does not split
numbers (``2.600`` is one token), so no number rule is needed.

Mapping LER classes to our labels (:data:`LER_CLASS_MAPPING`)
-----------------------------------------------------------
======  ===================  ==================  =========================================
class   what                 label               when
======  ===================  ==================  =========================================
PER     person               ``nat-name``        always
RR      judge                ``nat-jur``         always
AN      lawyer               ``nat-jur``         always
LD      country, state       ``None``            public places
ST      city                 ``address-name``    only if it locates a party: placeholder-
                                                 shaped (the court hid it), after a
                                                 postcode, after ``<street> ,`` or after a
                                                 residence word (``wohnhaft in``); else
                                                 ``None`` (seats of courts and authorities,
                                                 places in citations)
STR     street               ``address-name``    except numbered public roads
                                                 (``Bundesstraße 3``, ``B 235``): ``None``
LDS     landscape, region    ``address-name``    only placeholder-shaped (``Gemarkung S.``;
                                                 ``address-idx`` up to three words after
                                                 ``Flurstück``: ``Flurstücke B und C``);
                                                 clear names (``Europa``) ``None``
ORG     organization         ``jur-name``        only private ones: with a placeholder part
                                                 (``K-Klinik``) or a private legal form
                                                 (``e. V.``, ``mbH``); a clear name the court
                                                 published (``ver.di``, ``EU``) is ``None``
UN      company              ``jur-name``        always
INN     public institution   ``None``            public bodies
GRT     court                ``court-name``      always
MRK     brand                ``car-name``        only vehicle makes and models
                                                 (``mapping.VEHICLE_MAKES``); trademarks in
                                                 register disputes are public: ``None``
GS      law                  ``None``            statutes are public
VO      ordinance            ``None``
EUN     European norm        ``None``
VS      regulation           ``None``
VT      contract             ``None``            LER's contracts are collective and works
                                                 agreements and state treaties (``TVöD``,
                                                 ``BV 97``), cited like statutes
RS      court decision       ``None``            cited decisions are public
LIT     literature           ``None``
======  ===================  ==================  =========================================

Span boundaries: LER → hf-anon's guidelines (applied to every sensitive mention, in order)
----------------------------------------------------------------------------------------
===================================================  ===================================
rule                                                 example
===================================================  ===================================
edge punctuation and quote tokens are outside        ``„ Limmer “`` → ``Limmer``
leading titles, salutations, roles, ``Firma``,       ``Herrn G.`` → ``G.``,
``Az.`` are outside (``mapping.LEADING_WORDS``)      ``Prof. Dr. med. K.`` → ``K.``
a comma or semicolon ends a span (not after a       ``W. und M. L.`` → ``W.``, ``M. L.``
truncated word: ``Haus- , Wohnungs-``); for persons
also ``und``/``oder``/``sowie``/``bzw.``/``/``/``&``
trailing legal forms are outside ``jur-name``        ``R … GmbH & Co. KG`` → ``R…``,
(:data:`~hf_anon.text.lexicon.LEGAL_FORMS`), also glued     ``X-GmbH`` → ``X``
with a hyphen
===================================================  ===================================

LER's person spans do not include titles (``Herrn``/``Dr.`` stand before them), but its
company spans include legal forms and some spans include quotes; the rules above are
applied regardless, so the result does not depend on that.

Placeholders
------------
:func:`~hf_anon.corpora.placeholders.shapes.is_placeholder_mention` is a shape rule on a
mention's text (in :mod:`hf_anon.corpora.placeholders.shapes`, independent of the context-based
detector of :mod:`hf_anon.corpora.placeholders`): every whitespace-separated part is a
placeholder part (:func:`~hf_anon.corpora.placeholders.shapes.is_placeholder_part`: ``G.``,
``A``, ``B1``, ``Ts.``, ``A. B.``, ``A-Straße``, ``…``, ``K…``, ``Xxxxx``, ``Ａ``), where a
lower-case word right after a placeholder part continues it (``K. straße``).
:func:`ler_placeholder_key` keeps these parts of sensitive person, company and address
mentions as a placeholder key; :func:`pseudonymize_ler` replaces such mentions with
surrogates. A person mention counts only as a whole (``K. Schmidt`` is a judge's initial
and name); a company or address mention with a placeholder part (``Ekliniken M-R``) is
replaced as a whole.

Documents
---------
CoNLL sentences are shuffled, but every one of them is a line of the raw text:
:func:`locate_sentences` finds it there, and :func:`group_sentences` puts the sentences
of a split back into reading order per court before cutting documents of N sentences
(``ler-dev-00001``; domain = court). Without the raw text, the file order is kept
(domain ``ler``). Sentences are joined with ``\n``.

Raw files become decisions where the text marks their ends: BAG and BGH decisions end
with the judges' names, one a line (:func:`decision_ends`); the other courts' texts do
not, so they are cut into N-sentence chunks (``ler-raw-bgh-00001``, domain = court).
TIMEX3 ``DATE`` stretches are kept as ``meta["timex_dates"]`` (``[start, end]``
characters); they come from an automatic tagger and include docket numbers read as
years (the ``1725`` of ``1 K 1725/14``).

The package: :mod:`~hf_anon.corpora.ler.conll` (reading CoNLL, :class:`Anomalies`),
:mod:`~hf_anon.corpora.ler.detokenize`, :mod:`~hf_anon.corpora.ler.mapping` (the two tables above),
:mod:`~hf_anon.corpora.ler.documents` (sentences → documents, key, pseudonyms) and
:mod:`~hf_anon.corpora.ler.timeml` (the raw text).
"""

from hf_anon.corpora.ler.conll import LER_CLASSES, Anomalies, LerSentence, Mention, read_conll
from hf_anon.corpora.ler.detokenize import detokenize
from hf_anon.corpora.ler.documents import (
    ConvertedSentence,
    LerStats,
    RawLocation,
    SentenceGroup,
    check_labels,
    convert_sentence,
    group_sentences,
    ler_corpus,
    ler_documents,
    ler_placeholder_key,
    locate_sentences,
    pseudonymize_ler,
)
from hf_anon.corpora.ler.mapping import (
    KEY_CLASSES,
    LER_CLASS_MAPPING,
    PSEUDONYMIZED_LABELS,
    ClassMapping,
    SpanCandidate,
    map_mention,
    mention_spans,
    should_pseudonymize,
)
from hf_anon.corpora.ler.timeml import (
    RawLine,
    Timex,
    court_of,
    decision_ends,
    detokenize_raw_line,
    is_signature_line,
    parse_timex_line,
    raw_documents,
    raw_files,
    read_raw_lines,
    read_raw_timex,
    save_raw_jsonl,
)

# moved to hf_anon.corpora.placeholders (kept importable from here)
from hf_anon.corpora.placeholders.shapes import (
    is_placeholder_mention,
    is_placeholder_part,
    placeholder_parts,
)

__all__ = [
    "KEY_CLASSES",
    "LER_CLASSES",
    "LER_CLASS_MAPPING",
    "PSEUDONYMIZED_LABELS",
    "Anomalies",
    "ClassMapping",
    "ConvertedSentence",
    "LerSentence",
    "LerStats",
    "Mention",
    "RawLine",
    "RawLocation",
    "SentenceGroup",
    "SpanCandidate",
    "Timex",
    "check_labels",
    "convert_sentence",
    "court_of",
    "decision_ends",
    "detokenize",
    "detokenize_raw_line",
    "group_sentences",
    "is_placeholder_mention",
    "is_placeholder_part",
    "is_signature_line",
    "ler_corpus",
    "ler_documents",
    "ler_placeholder_key",
    "locate_sentences",
    "map_mention",
    "mention_spans",
    "parse_timex_line",
    "placeholder_parts",
    "pseudonymize_ler",
    "raw_documents",
    "raw_files",
    "read_conll",
    "read_raw_lines",
    "read_raw_timex",
    "save_raw_jsonl",
    "should_pseudonymize",
]
