"""(internal) Directive-shape signals in Spanish, French, German, Chinese, Japanese and Russian.

The same kinds of evidence as the English signals, each wanting a target (the model's previous instructions,
its rules, every reply) or an addressee (the assistant, the AI): "olvidé las instrucciones del horno" (I forgot
the oven instructions) fires nothing, "olvida tus reglas" (forget your rules) does. Text is case folded.
"""

# ruff: noqa: RUF001  (the patterns are written in the scripts they match)

from __future__ import annotations

from tiermem.trust.patterns import Signal, patterns, table
from tiermem.trust.signals_intl_orders import SIGNALS_INTL_ORDERS

__all__ = ["SIGNALS_INTL"]

_OVERRIDE = table(
    # es
    (
        r"\b(?:ignora|olvida|descarta|omite)\w*\s+(?:todas?\s+)?(?:las\s+|tus\s+|sus\s+)?(?:instrucciones|reglas|normas|indicaciones)",
        0.55,
    ),
    # fr
    (
        r"\b(?:ignore|oublie|ignorez|oubliez)\s+(?:toutes\s+|tous\s+)?(?:les\s+|tes\s+|vos\s+)?(?:instructions|consignes|règles|directives)",
        0.55,
    ),
    # de
    (
        r"\b(?:ignoriere|ignorieren\s+sie|vergiss|vergessen\s+sie)\s+(?:alle\s+)?(?:vorherigen\s+|bisherigen\s+)?(?:deine\s+|ihre\s+|die\s+)?(?:anweisungen|regeln|vorgaben|instruktionen)",
        0.55,
    ),
    # zh
    (
        r"(?:忽略|无视|忘记|忘掉)(?:之前|以前|先前|上面|你的|所有)?(?:的)?(?:所有)?(?:的)?(?:指令|指示|规则|提示)",
        0.55,
    ),
    # ja
    (
        r"(?:これまで|以前|前|上記)の(?:指示|命令|ルール)を(?:すべて|全て)?無視|(?:あなたの)?ルールを忘れ",
        0.55,
    ),
    # ru
    (
        r"(?:игнорируй|игнорируйте|забудь|забудьте)\s+(?:все\s+)?(?:предыдущие\s+|прежние\s+|свои\s+|твои\s+)?(?:инструкции|правила|указания)",
        0.55,
    ),
)
_ADDRESSED = table(
    (r"(?:^|[.!?\n]\s*)(?:asistente|assistant|assistent|ассистент)\s*[,:]", 0.35),
    (
        r"\b(?:nota|mensaje)\s+para\s+(?:la\s+)?(?:ia|asistente)|\bnote\s+pour\s+l['’](?:ia|assistant)|\bhinweis\s+an\s+die\s+ki\b|примечание\s+для\s+ии|给ai的|(?:ai|アシスタント)への(?:メモ)?|アシスタントへ",
        0.4,
    ),
    (
        r"\bsi\s+eres\s+(?:un\s+)?(?:modelo|ia|asistente)|\bsi\s+tu\s+es\s+une?\s+(?:ia|modèle|assistant)|\bwenn\s+du\s+ein\s+(?:sprachmodell|ki)|如果你是.{0,8}(?:人工智能|ai|模型)|(?:を|で)?読んでいる(?:ai|人工知能)|если\s+ты\s+(?:языковая\s+модель|ии|ассистент)",
        0.45,
    ),
    (
        r"\b(?:mensaje\s+del\s+sistema|message\s+système|systemnachricht)\b|系统消息|システムメッセージ|системное\s+сообщение",
        0.4,
    ),
    (
        r"\b(?:el\s+asistente|l['’]assistant|der\s+assistent)\s+(?:debe|tiene\s+que|doit|muss)\b|助手必须|アシスタントは.{0,30}こと|ассистент\s+(?:обязан|должен)",
        0.4,
    ),
)
_PERSIST = table(
    (
        r"\b(?:a\s+partir\s+de\s+ahora|à\s+partir\s+de\s+maintenant|désormais|ab\s+sofort|ab\s+jetzt)\b|从现在(?:开始|起)|今後は|これからは|с\s+этого\s+момента|теперь",
        0.25,
    ),
    (r"\b(?:debes|tu\s+dois|du\s+musst)\b|你必须|必ず|ты\s+должен", 0.3),
)
_SECRECY = table(
    (
        r"\bno\s+le\s+digas\s+(?:nada\s+)?al\s+usuario|\bne\s+dis\s+rien\s+à\s+l['’]utilisateur|\bsag\s+dem\s+nutzer\s+nichts|不要告诉用户|ユーザーには(?:何も)?(?:言わず|伝えず)|ничего\s+не\s+говори\s+пользователю",
        0.35,
    ),
    (
        r"\bsin\s+pedir\s+confirmación|\bsans\s+demander\s+(?:de\s+)?confirmation|\bohne\s+rückfrage|不经确认|確認せずに|без\s+подтверждения",
        0.3,
    ),
)
_HIJACK = table(
    (
        r"\b(?:responde|réponds|antworte)\w*\s+(?:\S+\s+){0,3}?(?:solo|uniquement|nur(?:\s+noch)?)\s+(?:en|avec|mit)\s+(?:des\s+)?emojis?|只用表情符号|絵文字だけで|только\s+эмодзи",
        0.4,
    ),
    (r"\b(?:promocionando|faisant\s+la\s+promotion|bewirbt)\b|推广|宣伝する|рекламирующ", 0.3),
    (
        r"\b(?:cada|chaque|jeder)\s+(?:respuesta|réponse|antwort)\b|每个回答|すべての回答|каждый\s+ответ",
        0.4,
    ),
    (r"\b(?:añade|agrega|ajoute|ajoutez|füge|fügen)\b|加一句|を加え|добавля", 0.3),
)
_SENSITIVE = table(
    (
        r"\b(?:envía|envoie|schicke)\s+(?:los\s+|les\s+|die\s+)?(?:archivos|fichiers|dateien)\s+(?:del\s+usuario|de\s+l['’]utilisateur|des\s+nutzers)|把用户的文件|ユーザーのファイル|файлы\s+пользователя",
        0.4,
    ),
    (
        r"\b(?:primera\s+clase|première\s+classe|ersten\s+klasse)\b|头等舱|ファーストクラス|первого\s+класса",
        0.2,
    ),
    (
        r"\b(?:prompt\s+del\s+sistema|prompt\s+système|systemprompt)\b|系统提示词|システムプロンプト|системный\s+промпт",
        0.3,
    ),
    (
        r"\b(?:dile\s+al\s+usuario|dis\s+à\s+l['’]utilisateur|sage\s+dem\s+nutzer)\b|告诉用户|ユーザーに.{0,20}伝え|скажи\s+пользователю",
        0.3,
    ),
    (
        r"\b(?:recomienda\s+siempre|recommande\s+toujours|empfiehl\s+immer)\b|始终推荐|常に.{0,20}勧め|всегда\s+рекомендуй",
        0.3,
    ),
)

SIGNALS_INTL = (
    Signal("override of earlier instructions (other language)", patterns(_OVERRIDE)),
    Signal("addressed to the assistant (other language)", patterns(_ADDRESSED), in_roles=True),
    Signal("a standing order (other language)", patterns(_PERSIST), in_roles=True),
    Signal("secrecy from the user (other language)", patterns(_SECRECY)),
    Signal("output-format hijack (other language)", patterns(_HIJACK), in_roles=True),
    Signal("an order about the user's data or the model (other language)", patterns(_SENSITIVE)),
    *SIGNALS_INTL_ORDERS,
)
