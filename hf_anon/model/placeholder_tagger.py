"""A learned second opinion on placeholders: a head on the anonymization model's encoder.

The rules of :mod:`hf_anon.corpora.placeholders` know the shapes they were written from;
a court with a new convention (``XXX``, ``###``, ``Ort01``) defeats them until someone
writes the next rule. The tagger learns *a removed reference in context* instead: a small
BIO head (``O``/``B``/``I``, "inside a placeholder"; one hidden layer) over the last hidden
states of the default model's encoder, which stays frozen. It is trained
(``datasets_scripts/train_placeholder_tagger.py``) on the published text itself: the keyed
placeholders of the real training split and the rule-found placeholders of published
decisions outside every key, each placeholder re-rendered in other courts' shapes
(``A.`` ↔ ``XXX`` ↔ ``…`` ↔ ``###`` ↔ ``Xxxxx`` ↔ ``****``, :func:`rerender`), so that the
shape alone cannot be what it learns.

The label a placeholder hides comes from the same forward pass: a label head over the
placeholder's tokens and the four on each side, trained on the keyed labels of the real
training split (or, in a folder without one, the model's category head averaged over the
placeholder's tokens; :meth:`PlaceholderTagger.labels_for`). It serves the rules too, where
their cue words are silent (``unknown``, or a name only by its shape).

The heads are small (``placeholder_head.json``, ``placeholder_head.safetensors`` and
``placeholder_label_head.safetensors`` in the model folder, 1.6 MB), so they ship with the
model they read; :func:`find_placeholders_with` is the entry point.

**The tuned tagger** (``adapter=True`` in ``placeholder_head.json``) reads with an encoder of
its own: the model's, with a LoRA adapter (``placeholder_adapter/``) merged into a copy, trained
with an ``O``/``B``/``I`` head and a per-token label head
(``placeholder_token_labels.safetensors``) on decisions masked the way courts mask
(:mod:`hf_anon.model.placeholder_tuning`). Either tagger may keep only spans a court could
have written as a stand-in (``stand_in_only``, :func:`could_be_stand_in`).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from hf_anon.corpora.japanese.placeholder_shapes import (
    could_be_japanese_stand_in,
    rerender_japanese,
)
from hf_anon.corpora.japanese.placeholders import no_placeholder_at
from hf_anon.corpora.placeholders.by_language import rule_placeholders
from hf_anon.corpora.placeholders.shapes import is_glyph_code
from hf_anon.model.alignment import encode_documents, merge_windows
from hf_anon.model.detection import pad_windows
from hf_anon.text.data import Document, Span, rewrite_spans
from hf_anon.text.labels import LabelSet

HEAD_WEIGHTS = "placeholder_head.safetensors"
HEAD_CONFIG = "placeholder_head.json"
LABEL_HEAD_WEIGHTS = "placeholder_label_head.safetensors"
#: The tuned tagger's per-token label head (what a placeholder hides, read in context).
TOKEN_LABEL_WEIGHTS = "placeholder_token_labels.safetensors"
#: The sub-folder of the tuned tagger's LoRA adapter on the encoder (PEFT format).
ADAPTER_FOLDER = "placeholder_adapter"
#: The files of that adapter that are read (and pushed); PEFT's own card is not.
ADAPTER_FILES = ("adapter_config.json", "adapter_model.safetensors")
#: Tokens on each side of a placeholder whose states the label head reads.
CONTEXT_TOKENS = 4


@dataclass
class TaggerConfig:
    """What the head needs besides its weights; saved beside them."""

    hidden_size: int
    head_units: int = 256  # 0: a linear head
    threshold: float = 0.5
    combine_threshold: float = 0.9  # a tagger-only placeholder beside the rules' needs this
    label_head_units: int = 0  # 0: no label head of its own (the category head labels)
    label_names: tuple[str, ...] = ()
    label_scope: str = "guessed"  # which rule placeholders the label head relabels: guessed, all
    max_length: int = 256
    stride: int = 32
    stand_in_only: bool = False  # drop spans no court writes as a stand-in (could_be_stand_in)
    adapter: bool = False  # the encoder tuned for placeholders (a LoRA adapter beside it)
    token_labels: bool = False  # a per-token label head of its own (tuned tagger)
    language: str = "de"  # ja: Japanese precedents (their view, rules, stand-ins and edges)
    rule_veto: bool = False  # ja: drop what the rules know is no placeholder (no_placeholder_at)


def build_head(config: TaggerConfig) -> nn.Module:
    """``O``/``B``/``I`` over one token's hidden state: linear, or one hidden layer."""
    if not config.head_units:
        return nn.Linear(config.hidden_size, 3)
    return nn.Sequential(
        nn.Linear(config.hidden_size, config.head_units), nn.GELU(), nn.Linear(config.head_units, 3)
    )


def build_label_head(config: TaggerConfig) -> nn.Module:
    """The label a placeholder hides, from its tokens and those around it (three means)."""
    return nn.Sequential(
        nn.Linear(3 * config.hidden_size, config.label_head_units),
        nn.GELU(),
        nn.Linear(config.label_head_units, len(config.label_names)),
    )


def token_rows(offsets: np.ndarray, span: Span) -> list[int]:
    """The tokens (rows of ``offsets``) whose characters overlap ``span``."""
    return [i for i, (s, e) in enumerate(offsets) if e > s and s < span.end and span.start < e]


def span_features(offsets: np.ndarray, hidden: np.ndarray, span: Span) -> np.ndarray:
    """The mean state of a span's tokens, of the :data:`CONTEXT_TOKENS` before and after."""
    rows = token_rows(offsets, span)
    if not rows:
        rows = [int(np.searchsorted(offsets[:, 0], span.start).clip(0, len(offsets) - 1))]
    before = hidden[max(0, rows[0] - CONTEXT_TOKENS) : rows[0]]
    after = hidden[rows[-1] + 1 : rows[-1] + 1 + CONTEXT_TOKENS]
    zero = np.zeros(hidden.shape[1], dtype=np.float32)
    parts = [hidden[rows].mean(axis=0)] + [
        part.mean(axis=0) if len(part) else zero for part in (before, after)
    ]
    return np.concatenate(parts).astype(np.float32)


# --- what a stand-in can look like --------------------------------------------------------

_STAND_IN_TOKEN = re.compile(
    r"[A-ZÄÖÜ]{1,3}\d{0,2}\.?"  # A  A.  AB  X1  CDI
    r"|[A-ZÄÖÜa-zäöü][a-zäöü]{0,2}\."  # Sch.  d.  t.
    r"|[A-ZÄÖÜ]\d?\.?-\S+"  # A-Stadt  X.-straße
    r"|[0.\s]*0[0.\s]*(?:(?:19|20)\d\d)?"  # 00000  00.0.2011
)
_MASK_CHARACTERS = re.compile(r"[…#*_＿]|\.\.|([A-Za-z])\1\1|(?<![A-Za-z])[xX]{2}|[Ａ-Ｚａ-ｚ]")


def _piece(text: str, start: int, end: int) -> str:
    """The text between the spaces around ``text[start:end]``."""
    left = max(text.rfind(" ", 0, start), text.rfind("\n", 0, start)) + 1
    rights = [i for i in (text.find(" ", end), text.find("\n", end)) if i >= 0]
    return text[left : min(rights) if rights else len(text)]


def could_be_stand_in(surface: str) -> bool:
    """Whether a court could have written ``surface`` for something it removed.

    Why: a stand-in carries no information of its own: letters (``A.``, ``X1``, ``Sch.``),
    letter-places (``A-Stadt``), runs (``XXX``, ``nnnn``, ``____``, ``###``, ``…``), zeros.
    A tagger that reads context alone also proposes what stands in a stand-in's place in
    clear (``in Richtung Hochspeyer``, ``im Jahr 2010``, ``im September``); this is the test
    such a span fails. It says nothing about which court uses which convention.
    """
    if _MASK_CHARACTERS.search(surface):
        return True
    tokens = [t.strip(",;:()„“\"'") for t in surface.split()]
    return any(t and _STAND_IN_TOKEN.fullmatch(t) for t in tokens)


# --- re-rendering: one placeholder in another court's shape -------------------------------

_SHAPES = (
    "initial",
    "XXX",
    "ellipsis",
    "###",
    "Xxxxx",
    "****",
    "initial-ellipsis",
    "bare",
    "code",
    "numbered",
    "underscore",
    "keep",
)


def render_shape(surface: str, shape: str, rng: random.Random) -> str:
    """``surface`` (a placeholder) written in another convention; letters come from it."""
    letter = next((c for c in surface if c.isalpha() and c.isupper()), rng.choice("ABCDEFGHKLMS"))
    if shape == "initial":
        return f"{letter}."
    if shape == "XXX":
        return "X" * rng.choice((3, 3, 4, 5))
    if shape == "ellipsis":
        return rng.choice(("…", "..."))
    if shape == "###":
        return "#" * rng.choice((3, 3, 5))
    if shape == "Xxxxx":
        return "X" + "x" * rng.choice((3, 4, 5))
    if shape == "****":
        return "*" * rng.choice((3, 4, 5))
    if shape == "initial-ellipsis":
        return f"{letter}…"
    if shape == "bare":
        return letter  # "der I", "Zeuge B"
    if shape == "code":
        return f"{letter}{rng.choice('ABCDEFG')}."  # "am AA.": a court that letters in order
    if shape == "numbered":
        return f"{letter}{rng.randint(1, 9)}"  # "X1", "B2"
    if shape == "underscore":
        return letter + "_" * rng.choice((3, 5))  # "S_____"
    return surface


def rerender(
    text: str, spans: Sequence[Span], rng: random.Random, keep: float = 0.3
) -> tuple[str, list[Span]]:
    """The text with each placeholder re-rendered in a random convention (kept with
    probability ``keep``); spans move with it. Street and town placeholders keep their
    suffix (``A-Straße 1`` → ``XXX-Straße 1``) so the address still reads as one."""

    def new_surface(surface: str) -> str:
        if rng.random() < keep or "\n" in surface:
            return surface
        shape = rng.choice(_SHAPES)
        suffix = re.search(r"-(?:[A-ZÄÖÜ][a-zäöüß]+)(?:\s+\d+\w?)?$", surface)
        core = surface[: suffix.start()] if suffix else surface
        return render_shape(core, shape, rng) + (suffix.group() if suffix else "")

    return rewrite_spans(text, spans, new_surface)


# --- the tagger ------------------------------------------------------------------------

_EDGES = " \t\n,;:()[]\"'„“"
_EDGES_JA = _EDGES + "　、。，．（）「」『』：；"


def rerender_for(language: str):
    """The re-rendering of a language's placeholders (:func:`rerender`, Japanese
    :func:`~hf_anon.corpora.japanese.placeholder_shapes.rerender_japanese`)."""
    return rerender_japanese if language == "ja" else rerender


def stand_in_for(language: str):
    """The test of what a court of this language could write as a stand-in
    (:func:`could_be_stand_in`, Japanese :func:`could_be_japanese_stand_in`)."""
    return could_be_japanese_stand_in if language == "ja" else could_be_stand_in


def tagger_view(
    text: str, language: str, unwrap_lines: bool = False
) -> tuple[str, np.ndarray | None]:
    """What a placeholder tagger reads of ``text``, and the original offset of each of its
    characters (None: the offsets are the same). German: the model view, same length, as
    the German heads were trained; Japanese: as the span model reads, with
    ``unwrap_lines`` through a PDF's wrapped line ends. Why one function: the tuned
    tagger's training windows (:mod:`hf_anon.model.placeholder_tuning`) must be read as
    :meth:`PlaceholderTagger.encode` reads."""
    from hf_anon.text.views import model_view, read_text

    if language == "de":
        return model_view(text), None
    view = read_text(text, language, unwrap_lines)
    return view.model, view.model_index


def load_tuned_encoder(encoder: nn.Module, folder) -> nn.Module:
    """A copy of ``encoder`` with the tagger's LoRA adapter (``placeholder_adapter/`` of the
    model folder, PEFT format) merged in; the span model's own encoder stays as it is."""
    import copy

    from peft import PeftModel

    files = [folder.file(f"{ADAPTER_FOLDER}/{name}") for name in ADAPTER_FILES]
    if any(f is None for f in files):
        raise ValueError(f"{folder} has no {ADAPTER_FOLDER}/ ({', '.join(ADAPTER_FILES)})")
    tuned = PeftModel.from_pretrained(copy.deepcopy(encoder), str(files[0].parent))
    return tuned.merge_and_unload().eval()


class PlaceholderTagger:
    """The anonymization model's encoder (frozen, or tuned: its adapter merged into a copy)
    plus the placeholder heads."""

    def __init__(self, model, tokenizer, head: nn.Module | None, config: TaggerConfig):
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.head = head.eval() if head is not None else None
        self.config = config
        self.labels: LabelSet = LabelSet.from_dict(model.config.label_set)
        self.label_head: nn.Module | None = None
        # The tuned tagger reads with its own encoder (the model's, its adapter merged) and
        # labels each token with its own head; the frozen one shares the span model's.
        self.encoder: nn.Module = model.encoder
        self.token_label_head: nn.Module | None = None

    @classmethod
    def from_pretrained(
        cls, path: str | Path | None = None, *, require_head: bool = True
    ) -> PlaceholderTagger:
        """The model folder (None: the bundled default) with its placeholder head; a clear
        error where the folder has none, unless ``require_head=False`` (only the category
        head is then used, :meth:`labels_for`)."""
        from safetensors.torch import load_file

        from hf_anon.model.model_folder import ModelFolder

        folder = ModelFolder(path)
        config_file, weights_file = folder.file(HEAD_CONFIG), folder.file(HEAD_WEIGHTS)
        if (config_file is None or weights_file is None) and not require_head:
            model = folder.load_model()
            language = getattr(model.config, "language", "de")
            config = TaggerConfig(model.encoder.config.hidden_size, language=language)
            return cls(model, folder.load_tokenizer(), None, config)
        if config_file is None or weights_file is None:
            raise ValueError(
                f"{folder} has no placeholder head ({HEAD_CONFIG}, {HEAD_WEIGHTS}); train one "
                "with datasets_scripts/train_placeholder_tagger.py"
            )
        data = json.loads(config_file.read_text(encoding="utf-8"))
        data["label_names"] = tuple(data.get("label_names", ()))
        config = TaggerConfig(**data)
        head = build_head(config)
        head.load_state_dict(load_file(str(weights_file)))
        tagger = cls(folder.load_model(), folder.load_tokenizer(), head, config)
        if config.adapter:
            tagger.encoder = load_tuned_encoder(tagger.model.encoder, folder)
        if config.token_labels:
            token_file = folder.file(TOKEN_LABEL_WEIGHTS)
            if token_file is None:
                raise ValueError(f"{folder} lacks {TOKEN_LABEL_WEIGHTS}, named by {HEAD_CONFIG}")
            tagger.token_label_head = nn.Linear(config.hidden_size, len(tagger.labels))
            tagger.token_label_head.load_state_dict(load_file(str(token_file)))
            tagger.token_label_head.eval()
        label_file = folder.file(LABEL_HEAD_WEIGHTS) if config.label_head_units else None
        if label_file is not None:
            tagger.label_head = build_label_head(config)
            tagger.label_head.load_state_dict(load_file(str(label_file)))
            tagger.label_head.eval()
        return tagger

    def save_head(self, folder: str | Path) -> None:
        from safetensors.torch import save_file

        folder = Path(folder)
        save_file(
            {k: v.contiguous() for k, v in self.head.state_dict().items()}, folder / HEAD_WEIGHTS
        )
        if self.label_head is not None:
            weights = {k: v.contiguous() for k, v in self.label_head.state_dict().items()}
            save_file(weights, folder / LABEL_HEAD_WEIGHTS)
        if self.token_label_head is not None:
            weights = {k: v.contiguous() for k, v in self.token_label_head.state_dict().items()}
            save_file(weights, folder / TOKEN_LABEL_WEIGHTS)
        self.config.token_labels = self.token_label_head is not None
        (folder / HEAD_CONFIG).write_text(json.dumps(asdict(self.config), indent=2) + "\n")

    @torch.no_grad()
    def encode(self, texts: Sequence[str], batch_size: int = 16):
        """Per text: its token offsets, the encoder's hidden states and the category
        probabilities, both averaged over overlapping windows."""
        from hf_anon.text.spacing import to_original

        unwrap = bool(getattr(self.model.config, "unwrap_lines", False))
        views = [tagger_view(t, self.config.language, unwrap) for t in texts]
        docs = [Document(str(i), view) for i, (view, _) in enumerate(views)]
        encoded = encode_documents(
            docs, self.tokenizer, self.labels, max_length=self.config.max_length,
            stride=self.config.stride,
        )  # fmt: skip
        results = []
        pad = self.tokenizer.pad_token_id or 0
        for enc, (_, index) in zip(encoded, views, strict=True):
            hidden_rows, label_rows = [], []
            for k in range(0, len(enc.windows), batch_size):
                windows = enc.windows[k : k + batch_size]
                ids, mask = pad_windows([w.input_ids for w in windows], pad)
                hidden = self.encoder(input_ids=ids, attention_mask=mask).last_hidden_state
                label_head = self.token_label_head
                if label_head is None:  # the frozen tagger: the span model's category head
                    label_head = self.model.label_head
                labels = torch.softmax(label_head(hidden).float(), dim=-1)
                for row, w in enumerate(windows):
                    hidden_rows.append(hidden[row, : len(w.input_ids)].float().numpy())
                    label_rows.append(labels[row, : len(w.input_ids)].numpy())
            if enc.windows:
                hidden = merge_windows(enc, hidden_rows)
                label_probs = merge_windows(enc, label_rows)
            else:
                hidden = np.zeros((0, self.config.hidden_size), dtype=np.float32)
                label_probs = np.zeros((0, len(self.labels)), dtype=np.float32)
            results.append((to_original(enc.offsets, index), hidden, label_probs))
        return results

    def tag_probabilities(self, hidden: np.ndarray) -> np.ndarray:
        if self.head is None:
            raise ValueError("this tagger has no placeholder head (labels only)")
        with torch.no_grad():
            x = torch.from_numpy(np.ascontiguousarray(hidden, dtype=np.float32))
            return torch.softmax(self.head(x), dim=-1).numpy()

    def spans_from(
        self, text: str, offsets: np.ndarray, probs: np.ndarray, label_probs, threshold=None
    ) -> list[Span]:
        """Tokens whose P(inside a placeholder) passes the threshold (None: the configured
        one), joined where only a space or nothing separates them, each labelled by the
        category head; a span that is only part of a word is dropped."""
        threshold = self.config.threshold if threshold is None else threshold
        inside = 1.0 - probs[:, 0] >= threshold
        spans: list[Span] = []
        start = end = None
        rows: list[int] = []
        for i, on in enumerate(inside):
            s, e = int(offsets[i][0]), int(offsets[i][1])
            if e <= s:
                continue
            if on and start is not None and (probs[i, 1] < probs[i, 2] or text[end:s] in ("", " ")):
                end = e
                rows.append(i)
                continue
            if start is not None:
                spans.append(self._span(text, start, end, label_probs[rows]))
                start = None
            if on:
                start, end, rows = s, e, [i]
        if start is not None:
            spans.append(self._span(text, start, end, label_probs[rows]))
        return [s for s in spans if s is not None]

    def _span(self, text: str, start: int, end: int, label_probs: np.ndarray) -> Span | None:
        german = self.config.language == "de"
        edges = _EDGES if german else _EDGES_JA
        while start < end and text[start] in edges:
            start += 1
        while end > start and text[end - 1] in edges:
            end -= 1
        if end <= start:
            return None
        # German words stand between spaces: a span that is part of one ("X" of "X1", "ts"
        # of "Amts") cut no reference out. Japanese has no spaces to tell.
        if german and (
            (start > 0 and text[start - 1].isalnum()) or (end < len(text) and text[end].isalnum())
        ):
            return None
        if self.config.stand_in_only and not stand_in_for(self.config.language)(text[start:end]):
            return None
        if german and is_glyph_code(_piece(text, start, end)):
            return None  # "/;###/g43": a PDF font's glyph codes, as the rules read them
        if not german and self.config.rule_veto and no_placeholder_at(text, start):
            return None  # "ＷｈａｔｓＡｐｐ", "乙７", an outline mark: the rules know better
        label = self.labels.names[int(label_probs.mean(axis=0).argmax())]
        return Span(start, end, label)

    def labels_for(
        self, spans: Sequence[Span], offsets: np.ndarray, label_probs, hidden=None
    ) -> list[str]:
        """The label each span hides: the label head's where the tagger has one (and the
        hidden states are given), else the category head's (tokens overlapping it, averaged)."""
        if self.label_head is not None and hidden is not None and len(spans) and len(offsets):
            x = torch.from_numpy(np.stack([span_features(offsets, hidden, s) for s in spans]))
            with torch.no_grad():
                best = self.label_head(x).argmax(dim=-1).tolist()
            return [self.config.label_names[i] for i in best]
        out = []
        for span in spans:
            rows = token_rows(offsets, span)
            probs = label_probs[rows].mean(axis=0) if rows else None
            out.append(self.labels.names[int(probs.argmax())] if probs is not None else "unknown")
        return out

    def relabel(self, placeholders: Sequence, encoding, scope: str | None = None) -> list[Span]:
        """The rules' placeholders (:class:`~hf_anon.corpora.placeholders.Placeholder`) as
        spans, the guessed ones (``scope="guessed"``) or all (``"all"``; None: the
        configured :attr:`TaggerConfig.label_scope`) labelled by :meth:`labels_for`."""
        offsets, hidden, label_probs = encoding
        scope = self.config.label_scope if scope is None else scope
        chosen = [p.to_span() for p in placeholders if scope == "all" or p.guessed]
        named = dict(
            zip(chosen, self.labels_for(chosen, offsets, label_probs, hidden), strict=True)
        )
        return [Span(p.start, p.end, named.get(p.to_span(), p.label)) for p in placeholders]

    def tagged(self, text: str, encoding, threshold: float | None = None) -> list[Span]:
        """The tagger's own placeholders of ``text`` (threshold None: the configured one),
        labelled by the label head where the tagger has one."""
        offsets, hidden, label_probs = encoding
        spans = self.spans_from(
            text, offsets, self.tag_probabilities(hidden), label_probs, threshold
        )
        if self.label_head is None or not spans:
            return spans
        names = self.labels_for(spans, offsets, label_probs, hidden)
        return [Span(s.start, s.end, n) for s, n in zip(spans, names, strict=True)]

    def predict(self, texts: Sequence[str]) -> list[list[Span]]:
        """The tagger's placeholders of each text, labelled by the category head."""
        return [
            self.spans_from(text, offsets, self.tag_probabilities(hidden), label_probs)
            for text, (offsets, hidden, label_probs) in zip(texts, self.encode(texts), strict=True)
        ]


def combine(rule_spans: Sequence[Span], tagger_spans: Sequence[Span]) -> list[Span]:
    """The rules' placeholders plus the tagger's that overlap none of them."""
    extra = [
        t for t in tagger_spans if not any(r.start < t.end and t.start < r.end for r in rule_spans)
    ]
    return sorted([*rule_spans, *extra])


METHODS = ("rules", "tagger", "both")
LABEL_SOURCES = ("cues", "model")


def find_placeholders_with(
    texts: Sequence[str],
    *,
    method: str = "both",
    labels: str = "model",
    tagger: PlaceholderTagger | None = None,
    progress: bool = False,
    language: str | None = None,
) -> list[list[Span]]:
    """Placeholders of published decisions by the rules, the tagger or both; ``language``
    (None: the tagger's, else German) chooses the rules (``ja``: Japanese precedents).

    ``labels="model"`` gives the rules' guessed placeholders (``unknown``, or a name only
    because the shape looks like one: no cue word decided) the tagger's label
    (:meth:`PlaceholderTagger.relabel`); ``"cues"`` keeps the rules' labels. The tagger's
    own placeholders always take its label (:meth:`PlaceholderTagger.tagged`).
    """
    from tqdm.auto import tqdm

    if method not in METHODS or labels not in LABEL_SOURCES:
        raise ValueError(f"method must be one of {METHODS}, labels one of {LABEL_SOURCES}")
    if language is None:
        language = tagger.config.language if tagger is not None else "de"
    needs_model = method != "rules" or labels == "model"
    if needs_model and tagger is None:
        from hf_anon.model.model_folder import default_model

        tagger = PlaceholderTagger.from_pretrained(
            default_model(language), require_head=method != "rules"
        )
    if needs_model and tagger.config.language != language:
        raise ValueError(f"the tagger reads {tagger.config.language!r} decisions, not {language!r}")
    found = []
    for text in tqdm(texts, desc="placeholders", unit="doc", disable=not progress):
        placeholders = rule_placeholders(text, language) if method != "tagger" else []
        rules = [p.to_span() for p in placeholders]
        if not needs_model:
            found.append(rules)
            continue
        (encoding,) = tagger.encode([text])
        if labels == "model":
            rules = tagger.relabel(placeholders, encoding)
        tagged = []
        if method != "rules":
            threshold = tagger.config.combine_threshold if method == "both" else None
            tagged = tagger.tagged(text, encoding, threshold)
        found.append(
            rules if method == "rules" else tagged if method == "tagger" else combine(rules, tagged)
        )
    return found


__all__ = [
    "ADAPTER_FILES",
    "ADAPTER_FOLDER",
    "HEAD_CONFIG",
    "HEAD_WEIGHTS",
    "LABEL_SOURCES",
    "METHODS",
    "PlaceholderTagger",
    "TaggerConfig",
    "build_head",
    "build_label_head",
    "combine",
    "could_be_stand_in",
    "find_placeholders_with",
    "load_tuned_encoder",
    "render_shape",
    "rerender",
    "rerender_for",
    "span_features",
    "stand_in_for",
    "tagger_view",
    "token_rows",
]
