"""Synthetic Japanese precedent passages with gold spans (seed 004, issue #17).

No annotated Japanese precedents are available offline, so the Japanese model learns
from passages written here: criminal, traffic, civil and family cases, each a short
rubrum and a few sentences of facts drawn from the domain's templates, with a cast whose
values come from :class:`~hf_anon.corpora.japanese.surrogates.JapaneseSurrogates` (Faker
``ja_JP``). Spans follow ``data/ja/GUIDE.md``: roles (``被告人``), honorifics (``さん``)
and legal forms (``株式会社``) outside, a full name one span, later mentions by surname.
Sentences without spans that look like placeholders to a naive reader (``甲第１号証``,
``ＤＮＡ``, ``ア``, ``（１）``, statutes) are mixed in as negatives.

The text is built with :class:`~hf_anon.corpora.synthetic.writer.Writer`, so offsets are
exact by construction; a document depends only on the seed and its index.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import partial

from hf_anon.corpora.japanese.surrogates import JapaneseSurrogates
from hf_anon.corpora.japanese.templates import EXTRA_FACTS
from hf_anon.corpora.synthetic.writer import Part, Writer
from hf_anon.text.data import Document

JA_DOMAINS = ("criminal", "traffic", "civil", "family")

#: Template fields with one value per passage: their label and the
#: :class:`JapaneseSurrogates` method that draws it (drawn in this order).
FIXED_FIELDS = {
    "ADDR": ("address-name", "address"),
    "ADDR2": ("address-name", "address"),
    "ADDR3": ("address-name", "address"),
    "ROOM": ("address-idx", "room"),
    "TOWN": ("address-name", "town"),
    "POST": ("address-name", "postcode"),
    "PLATE": ("car-idx", "plate"),
    "PLATE2": ("car-idx", "plate"),
    "CAR": ("car-name", "car"),
    "PHONE": ("id-number", "phone"),
    "ACCOUNT": ("id-number", "account"),
    "DOCKET": ("court-docket", "docket"),
    "DOCKET2": ("court-docket", "docket"),
    "COURT": ("court-name", "court"),
    "COURT2": ("court-name", "court"),
    "AGE": ("nat-idx", "age"),
    "AGE2": ("nat-idx", "age"),
    "BIRTH": ("nat-idx", "birth"),
    "BIRTH2": ("nat-idx", "birth"),
}


class Cast:
    """The people, places and dates of one passage; names are mentioned in full first,
    then by surname (``田中太郎`` … ``田中``)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.values = v = JapaneseSurrogates(rng)
        self.names: dict[str, tuple[str, str]] = {}
        self.said: set[str] = set()
        self.company = {k: v.company() for k in ("CO", "CO2")}
        self.bank = v.bank()
        self.fixed = {name: getattr(v, draw)() for name, (_, draw) in FIXED_FIELDS.items()}
        self.dates = {
            "DATE": v.date(time=rng.random() < 0.6, year=rng.randint(2015, 2023)),
            "DATE2": v.date(year=rng.randint(2015, 2023)),
            "DATE3": v.date(year=rng.randint(2010, 2023)),
            "WDATE": v.date(year=rng.randint(2021, 2024)),
            "WDATE2": v.date(year=rng.randint(2021, 2024)),
        }

    def _name(self, key: str) -> tuple[str, str]:
        if key not in self.names:
            v = self.values
            if self.rng.random() < 0.06:
                full = v.foreign_name()
                self.names[key] = (full, full.split("・")[0])
            else:
                surname = v.surname()
                self.names[key] = (v.full_name(surname), surname)
        return self.names[key]

    def person(self, key: str, *, short: bool = False) -> Part:
        """A person's mention: the full name at first, later mostly the surname, and a
        relative now and then by the given name alone (``相手方順子``)."""
        full, surname = self._name(key)
        label = "nat-jur" if key in {"J", "J2", "L", "L2", "PR", "CL"} else "nat-name"
        first = key not in self.said
        self.said.add(key)
        if first:
            return Part(full, label)
        given = full[len(surname) :].strip(" \u3000")
        if key in {"R", "R2", "V", "V2"} and given and self.rng.random() < 0.12:
            return Part(given, label)
        return Part(surname if short or self.rng.random() < 0.7 else full, label)

    def field(self, name: str) -> object:
        """The piece for a template field ``{name}``."""
        base = name.rstrip("s")
        if base in {"D", "D2", "V", "V2", "W", "R", "R2", "J", "J2", "L", "L2", "PR", "DR", "CL"}:
            return self.person(base, short=name.endswith("s"))
        if name in {"CO", "CO2"}:
            core, form, form_first = self.company[name]
            return [form, Part(core, "jur-name")] if form_first else [Part(core, "jur-name"), form]
        if name == "COs":
            return Part(self.company["CO"][0], "jur-name")
        if name == "BANK":
            return Part(self.bank[0], "jur-name")
        if name == "BRANCH":
            return Part(self.bank[1], "jur-idx")
        if name in self.dates:
            return Part(self.dates[name], "date-world" if name.startswith("W") else "date-fact")
        if name not in FIXED_FIELDS:
            raise KeyError(f"unknown template field {{{name}}}")
        return Part(self.fixed[name], FIXED_FIELDS[name][0])


# --- templates: {FIELD}s are spans; everything else is plain text --------------------
# D/D2 defendant or party, V/V2 victim or other party, W witness, R/R2 relative,
# J/J2 judges, L/L2 lawyers, PR prosecutor, CL clerk, DR doctor (a trailing s: surname);
# CO/CO2 companies with their legal form, COs a company's name alone.

RUBRUM = {
    "criminal": [
        "{COURT}\n{WDATE}判決\n被告人\u3000{D}\n{BIRTH}\n住居\u3000{ADDR}{ROOM}\n職業\u3000会社員\n",
        "主文\n被告人を懲役２年に処する。\n",
        "{WDATE}宣告\u3000{COURT}刑事部\n{DOCKET}\u3000窃盗被告事件\n被告人\u3000{D}\n",
    ],
    "traffic": [
        "{COURT}\n{DOCKET}\u3000過失運転致傷被告事件\n被告人\u3000{D}（{AGE}）\n",
        "{DOCKET}\u3000損害賠償請求事件\n口頭弁論終結日\u3000{WDATE}\n原告\u3000{V}\n被告\u3000{D}\n",
        "{WDATE}判決言渡\n{DOCKET}\n原告\u3000{V}\n同訴訟代理人弁護士\u3000{L}\n被告\u3000{D}\n",
    ],
    "civil": [
        "{DOCKET}\u3000建物明渡請求事件\n口頭弁論終結日\u3000{WDATE}\n判決\n原告\u3000{D}\n被告\u3000{CO}\n同代表者代表取締役\u3000{V}\n",
        "{COURT}\n{WDATE}判決\n原告\u3000{D}\n同訴訟代理人弁護士\u3000{L}\n被告\u3000{V}\n",
        "〒{POST}\u3000{ADDR}\n原告\u3000{D}\n{ADDR2}\n被告\u3000{CO}\n",
    ],
    "family": [
        "{COURT}\n{WDATE}審判\n{DOCKET}\u3000子の監護者指定申立事件\n申立人\u3000{D}\n相手方\u3000{V}\n",
        "{DOCKET}\u3000離婚等請求事件\n原告\u3000{D}\n被告\u3000{V}\n主文\n原告と被告とを離婚する。\n",
        "本籍\u3000{ADDR2}\n住所\u3000{ADDR}\n申立人\u3000{D}\n{BIRTH}\n",
    ],
}

_BASE_FACTS = {
    "criminal": [
        "被告人{Ds}は、{DATE}頃、{ADDR}所在の{CO}{TOWN}店において、同店店長{V}が管理する食料品等１５点（販売価格合計４８００円）を窃取したものである。",
        "被告人は、{DATE}頃、{ADDR}付近路上において、通行中の{V}（当時{AGE2}）に対し、その顔面を手拳で殴打する暴行を加え、加療約２週間を要する顔面打撲の傷害を負わせた。",
        "被告人は、{CO}の経理担当者として勤務していたところ、{DATE2}頃から{DATE3}頃までの間、同社名義の{BANK}{BRANCH}の普通預金口座（口座番号{ACCOUNT}）から合計３２０万円を引き出し、これを横領した。",
        "被告人は、{W}と共謀の上、{DATE}頃、{V}方において、同人に対し、「息子の{R}が事故を起こした。」などと嘘を言い、現金２００万円を交付させた。",
        "証人{W}は、当公判廷において、被告人{Ds}から「{Vs}には絶対に言うな。」と言われた旨証言する。",
        "被告人の供述調書（乙第２号証）及び{W}の検察官調書（甲第５号証）によれば、被告人が{Vs}の財布を持ち去ったことが認められる。",
        "本件ＤＮＡ型鑑定の結果によれば、現場に遺留されたＴシャツから被告人のＤＮＡ型が検出されている。",
        "被告人は、{DATE}、{ADDR}の自宅において、覚せい剤である塩酸フェニルメチルアミノプロパンを含有する水溶液を自己の身体に注射し、もって覚せい剤を使用した。",
        "弁護人{L}は、被告人が{Vs}との間で示談を成立させていることなどを指摘して執行猶予を求める。",
        "被告人の母である{R}は、今後被告人と同居して監督する旨述べている。",
        "（量刑の理由）\n本件は、被告人が、金銭に窮し、{CO2}の従業員{V2}から現金を詐取した事案である。",
        "被告人は{DATE2}に{COURT2}で窃盗罪により懲役１年、執行猶予３年の判決を受け、その猶予期間中に本件に及んだ。",
        "検察官{PR}は被告人に対し懲役３年を求刑した。",
        "被告人は、逮捕時、{PHONE}の携帯電話を所持しており、その通話履歴には{Ws}との通話が多数記録されていた。",
        "（法令の適用）\n被告人の判示所為は刑法２３５条に該当するところ、所定刑中懲役刑を選択し、その刑期の範囲内で被告人を懲役１年６月に処する。",
        "被害者{Vs}は、ＡＴＭコーナーで現金を引き出した直後に被告人から声を掛けられたと供述している。",
        "被告人は、{TOWN}内のアパート{ROOM}で{R2}と二人で暮らしていた。",
    ],
    "traffic": [
        "被告人は、{DATE}頃、普通乗用自動車（{PLATE}）を運転し、{ADDR}先の信号機により交通整理の行われている交差点を右折進行するに当たり、前方左右を注視し、進路の安全を確認すべき自動車運転上の注意義務があるのにこれを怠り、対向直進してきた{V}（当時{AGE2}）運転の自転車に自車を衝突させた。",
        "よって、同人に加療約３か月間を要する右大腿骨骨折等の傷害を負わせたものである。",
        "本件事故は、{DATE}、{ADDR}付近の道路上で、被告{Ds}が運転する{CAR}（{PLATE}）と原告{Vs}が運転する普通自動二輪車とが衝突したものである。",
        "原告は、本件事故により頸椎捻挫の傷害を負い、{DATE2}から{DATE3}まで{CO}{TOWN}病院に通院した（甲第３号証）。",
        "担当医師{DR}は、原告の症状は{DATE3}に固定したと診断した。",
        "被告人は、{DATE}頃、酒気を帯び、呼気１リットルにつき０．４５ミリグラムのアルコールを身体に保有する状態で、{ADDR}付近道路において、普通乗用自動車を運転したものである（道路交通法１１７条の２の２第１号）。",
        "目撃者である{W}は、被告人車両がＥＴＣレーンを時速約８０キロメートルで通過したと供述している。",
        "被告は、{CO}の従業員であり、本件事故当時、同社の業務として{PLATE2}の貨物自動車を運転していたから、{COs}は使用者責任を負う。",
        "原告{V}の妻である{R}は、事故の知らせを受けて{TOWN}の病院に駆け付けた。",
        "被告人は、事故後、負傷した{Vs}を救護することなく、そのまま現場から逃走し、{DATE2}、{TOWN}内で発見された。",
        "ドライブレコーダーの映像（甲第７号証）及びＧＰＳの記録によれば、被告車両は制限速度を超過していたと認められる。",
        "（１）\u3000治療費\u3000４８万３２００円\n（２）\u3000通院交通費\u3000２万１８００円\n（３）\u3000休業損害\u3000６５万円",
        "原告訴訟代理人弁護士{L}は、過失割合について原告１０、被告９０と主張する。",
        "自賠責保険会社である{CO2}は、原告に対し、{DATE3}、１２０万円を支払った。",
    ],
    "civil": [
        "原告は、{DATE2}、被告との間で、{ADDR}所在の建物（{ROOM}）を賃料月額８万５０００円で賃貸する旨の契約を締結した。",
        "被告{Vs}は、{DATE3}以降の賃料を支払わず、原告は{DATE}到達の書面により本件賃貸借契約を解除する旨の意思表示をした。",
        "原告は、{DATE2}、被告に対し、５００万円を弁済期{DATE3}の約定で貸し付け、これを{BANK}{BRANCH}の被告名義の口座（口座番号{ACCOUNT}）に振り込んだ。",
        "原告{Ds}は、{DATE2}から{CO}に雇用され、同社{TOWN}工場で製造業務に従事していた。",
        "被告会社の代表取締役である{V}は、{DATE}、原告に対し、口頭で解雇を告げた。",
        "証人{W}の証言によれば、原告と{Vs}との間では、月末に残業代を精算する旨の合意があったと認められる。",
        "ア\u3000原告の主張\n本件解雇は、客観的に合理的な理由を欠き、社会通念上相当であると認められないから、無効である（労働契約法１６条）。\nイ\u3000被告の主張\n争う。",
        "原告は、{DATE}、{CO2}が運営する{TOWN}内の病院で胃の手術を受け、執刀医は{DR}であった。",
        "亡{R}（{DATE3}死亡）の相続人は、その妻である原告{Ds}と長男である被告{Vs}の２名である。",
        "原告代理人{L}は、{DATE2}付けの内容証明郵便（甲第４号証）で、被告に対し修繕を求めた。",
        "本件土地（{ADDR2}）の所有者は、登記簿上、{W}とされている。",
        "被告は、連絡先として{PHONE}を記載した書面を原告に交付していた。",
        "当裁判所は、原告の請求は理由があるものと判断する。その理由は次のとおりである。",
        "原告の同僚であった{W}は、ＬＩＮＥのメッセージで原告に退職を勧めていた（甲第１２号証）。",
        "被告{CO}は、{ADDR3}に本店を置き、不動産の売買及び仲介を業とする会社である。",
    ],
    "family": [
        "申立人と相手方は、{DATE2}に婚姻し、{DATE3}に長男{R}をもうけた。",
        "相手方{Vs}は、{DATE}頃、長男を連れて自宅を出て、{ADDR}の実家で生活するようになった。",
        "家庭裁判所調査官{CL}の調査報告書によれば、未成年者{Rs}は、申立人との面会を楽しみにしている。",
        "原告と被告は、{DATE2}に婚姻の届出をした夫婦であり、両者の間には長女{R}（{BIRTH2}）及び二女{R2}がいる。",
        "被告{Vs}は、{DATE}以降、原告に対して暴言を繰り返し、原告はＤＶ相談窓口に相談した（甲第６号証）。",
        "民法７７０条１項５号所定の婚姻を継続し難い重大な事由があるというべきである。",
        "相手方は、{CO}に勤務し、年収は約５２０万円である。",
        "申立人は、現在、{TOWN}に住み、パートタイムで稼働して月額１２万円程度の収入を得ている。",
        "被相続人{R}は、{DATE}、{ADDR}の自宅で死亡した。",
        "被相続人の遺産は、{ADDR2}所在の土地建物及び{BANK}{BRANCH}の預金（口座番号{ACCOUNT}）である。",
        "申立人の母である{W}は、申立人が未成年者の監護を補助できると陳述している。",
        "（１）\u3000未成年者の親権者を申立人と定める。\n（２）\u3000相手方は、申立人に対し、養育費として月額４万円を支払え。",
        "申立人代理人弁護士{L}は、相手方が{DATE2}以降婚姻費用を支払っていないと主張した。",
        "未成年者{R2}の後見人として、{W}を選任するのが相当である。",
    ],
}

#: Sentence templates per domain: the ones above and those of
#: :mod:`~hf_anon.corpora.japanese.templates`.
FACTS = {domain: [*_BASE_FACTS[domain], *EXTRA_FACTS[domain]] for domain in _BASE_FACTS}

CLOSING = [
    "{COURT}民事第５部\n裁判長裁判官\u3000{J}\n裁判官\u3000{J2}\n裁判官\u3000{CL}",
    "よって、主文のとおり判決する。\n{COURT}刑事第２部\n裁判官\u3000{J}",
    "（求刑\u3000懲役３年）\n{WDATE2}\n{COURT}\n裁判長裁判官\u3000{J}",
    "よって、主文のとおり審判する。\n{WDATE2}\n{COURT}家事第２部\n裁判官\u3000{J}",
    "",
]


def _fill(writer: Writer, template: str, cast: Cast) -> None:
    """``Writer.say`` with each field drawn where it stands (a name's first mention is its
    full name, so fields are drawn lazily, in text order)."""
    fields = set(re.findall(r"\{(\w+)\}", template))
    writer.say(template, **{name: partial(cast.field, name) for name in fields})


def generate_japanese_document(index: int, seed: int = 0, domain: str | None = None) -> Document:
    """The ``index``-th synthetic Japanese passage (``ja-synthetic-000001`` for 1)."""
    rng = random.Random(f"ja-synthetic\x00{seed}\x00{index}")
    domain = domain or rng.choice(JA_DOMAINS)
    if domain not in FACTS:
        raise ValueError(f"domain must be one of {', '.join(JA_DOMAINS)}, got {domain!r}")
    cast = Cast(rng)
    writer = Writer()
    if rng.random() < 0.6:
        _fill(writer, rng.choice(RUBRUM[domain]), cast)
        writer.add("\n")
    facts = FACTS[domain]
    for template in rng.sample(facts, k=min(len(facts), rng.randint(3, 7))):
        _fill(writer, template, cast)
        writer.add("\n" if rng.random() < 0.5 else "")
    if rng.random() < 0.4:
        writer.add("\n")
        _fill(writer, rng.choice(CLOSING), cast)
    return writer.document(f"ja-synthetic-{index:06d}", domain)


def generate_japanese_documents(
    n: int, seed: int = 0, *, progress: Callable[[int], None] | None = None
) -> list[Document]:
    """``n`` synthetic Japanese passages with gold spans."""
    docs = []
    for i in range(1, n + 1):
        docs.append(generate_japanese_document(i, seed))
        if progress:
            progress(i)
    return docs
