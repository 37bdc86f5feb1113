"""The label a placeholder of a Japanese precedent hides, read from the words around it
(``data/ja/GUIDE.md``): ``社``, ``株式会社`` → ``jur-name``; ``弁護人``, ``裁判官`` →
``nat-jur``; ``市``, ``丁目`` → ``address-name``; ``号室`` → ``address-idx``; ``支店`` →
``jur-idx``; roles and everything else → ``nat-name``. Kept apart from the detector
(:mod:`hf_anon.corpora.japanese.placeholders`), which finds where placeholders are."""

from __future__ import annotations

from hf_anon.text.languages import LEGAL_FORMS_JA, LEGAL_ROLES_JA, PERSON_ROLES_JA

UNKNOWN = "unknown"

#: Words before a letter that make it a person: the roles of the span edges and more
#: context (``共犯者Ｂ``, ``店長Ｃ``); ``LEGAL_ROLE_WORDS`` make it a jurist.
ROLE_WORDS = (
    *PERSON_ROLES_JA,
    "共犯者",
    "父",
    "母",
    "子",
    "店長",
    "店員",
    "従業員",
    "社員",
    "同僚",
    "知人",
    "友人",
    "運転手",
    "職員",
    "控訴人",
    "上告人",
    "抗告人",
    "請求人",
    "申請人",
    "債権者",
    "債務者",
    "患者",
    "作業員",
    "生徒",
    "児童",
    "兄",
    "姉",
    "弟",
    "妹",
)
LEGAL_ROLE_WORDS = LEGAL_ROLES_JA
LEGAL_FORMS = (*LEGAL_FORMS_JA, "法人", "社団", "財団")
JUR_AFTER = (
    "社",
    "株式会社",
    "有限会社",
    "合同会社",
    "銀行",
    "信用金庫",
    "病院",
    "クリニック",
    "医院",
    "商店",
    "店",
    "工業",
    "建設",
    "商事",
    "学校",
    "高校",
    "大学",
    "組合",
    "法人",
    "グループ",
    "ホテル",
    "会",
    "不動産",
    "運輸",
    "交通",
    "保育園",
    "園",
    "高等学校",
    "中学校",
    "小学校",
    "歯科",
    "組",
    "公民館",
    "センター",
    "党",
    "新聞",
    "の会",
)
#: What is said of an organisation, not of a person: ``Ｄの従業員``, ``Ｅに入社``, ``Ｆの組長``,
#: and what stands before one: ``経営する「Ｇ」``, ``施設Ｈ``, ``屋号「Ｉ」``.
JUR_CONTEXT_AFTER = (
    "の従業員",
    "の社員",
    "の代表",
    "の運営",
    "の経営",
    "の本社",
    "の本部",
    "の店舗",
    "の組長",
    "の若頭",
    "の構成員",
    "に入社",
    "に勤務",
    "に就職",
    "」の屋号",
    "製",
)
JUR_CONTEXT_BEFORE = (
    "経営する",
    "運営する",
    "経営していた",
    "運営していた",
    "設置する",
    "店舗",
    "施設",
    "屋号",
    "会社",
    "店",
    "勤務先",
    "勤務先である",
    "レストラン",
    "組織の",
    "組織である",
    "週刊",
)
JUR_IDX_AFTER = ("支店", "営業所", "出張所", "事業所", "工場")
ADDRESS_AFTER = (
    "県",
    "都",
    "府",
    "市",
    "区",
    "町",
    "村",
    "郡",
    "丁目",
    "番地",
    "駅",
    "警察署",
    "通り",
    "地区",
    "知事",
    "市長",
    "区長",
    "町長",
    "村長",
    "公園",
    "方面",
)
ADDRESS_IDX_AFTER = (
    "号室",
    "号棟",
    "棟",
    "荘",
    "マンション",
    "ハイツ",
    "アパート",
    "レジデンス",
    "団地",
    "ビル",
)
ADDRESS_IDX_BEFORE = ("コーポ", "ハイツ", "メゾン", "マンション", "アパート")
ID_BEFORE = ("口座番号", "電話番号", "携帯電話番号", "番号", "免許証番号", "ＩＤ")


def placeholder_label(text: str, start: int, end: int) -> str:
    before = text[max(0, start - 10) : start].rstrip(" 　")
    after = text[end : end + 6]
    if after.startswith(JUR_IDX_AFTER):
        return "jur-idx"
    if after.startswith(ADDRESS_IDX_AFTER) or before.endswith(ADDRESS_IDX_BEFORE):
        return "address-idx"
    if (
        before.endswith(LEGAL_FORMS)
        or after.startswith(JUR_AFTER)
        or after.startswith(JUR_CONTEXT_AFTER)
        or before.rstrip("「『").endswith(JUR_CONTEXT_BEFORE)
    ):
        return "jur-name"
    if after.startswith(ADDRESS_AFTER):
        return "address-name"
    if before.endswith(LEGAL_ROLE_WORDS) or after.startswith(("弁護士", "裁判官", "検察官")):
        return "nat-jur"
    if before.endswith(ID_BEFORE):
        return "id-number"
    return "nat-name"


def mask_label(text: str, start: int, end: int) -> str:
    before = text[max(0, start - 10) : start].rstrip(" 　")
    after = text[end : end + 6]
    if before.endswith(ID_BEFORE):
        return "id-number"
    if (
        after.startswith((*ADDRESS_AFTER, "番", "号"))
        or before.endswith(ADDRESS_AFTER)
        or before.endswith(("住所", "住居", "本籍", "所在地"))
    ):
        return "address-name"
    label = placeholder_label(text, start, end)
    if label != "nat-name":
        return label
    if before.endswith(ROLE_WORDS + LEGAL_ROLE_WORDS) or after.startswith(
        ("方", "さん", "氏", "は", "が", "こと")
    ):
        return "nat-name"
    return UNKNOWN
