"""(internal) Orders to the reader in other languages (Romance, Germanic, Slavic, CJK, Indic, Arabic, Persian,
Turkish, Indonesian, Vietnamese, Thai), by evidence class.

Beside the phrase signals of ``signals_intl``, this asks which classes of agent-directed evidence a window holds,
each written as small word lists per language rather than as whole phrasings:

- an *override*: a verb of forgetting or ignoring with the reader's instructions, rules or what it was told;
- an *AI addressed*: a machine reader named in a greeting or a label ("Atención, IA:", "Beste AI-assistent,",
  "Hinweis an den KI-Assistenten:"), or the reader of this text as a machine ("la IA que lea esto");
- a *persona*: the reader told what it now is or plays ("eres/sei/você é/du bist/你是 ... asistente, IA");
- *free of rules*: without filters, restrictions or limits;
- a *standing order*: from now on ("a partir de ahora", "d'ora in poi", "désormais", "ab jetzt", "从现在开始");
- the *answer's form*: answer only in another language, add a link to every answer;
- *the user* in the third person (the person an agent works for);
- a *sensitive object*: a password, a card number, a security code, the user's e-mails or chat history;
- *secrecy*: without telling or asking the user;
- a *trigger*: when the user (or anyone) asks or mentions something later;
- an order to *tell the user* something ("dile", "digli", "dis-lui", "sag ihm", "告诉用户");
- the *task changed*: a new task for the reader, or something to do instead of answering;
- *data sent out*: a sending verb with an address or a link.

One class alone counts for nothing (an e-mail says "désormais" or "al usuario"); an override alone, or two
classes in one window, is what planted text has. Text is case folded.
"""

# ruff: noqa: RUF001  (the patterns are written in the scripts they match)

from __future__ import annotations

import re

from tiermem.trust.literals import may_match
from tiermem.trust.patterns import Finding, Signal

__all__ = ["PERSONA_NOW", "SIGNALS_INTL_ORDERS"]

_GUIDANCE = (
    r"(?:instrucci\w+|reglas|normas|indicaciones|directrices|instruç\w+|regras|diretrizes|orienta\w+|istruzioni|"
    r"regole|direttive|indicazioni|consignes|instructions|règles|directives|anweisungen|regeln|vorgaben|"
    r"richtlinien|sicherheitsrichtlinien|instruktionen|系统提示|提示词?|指令|指示|规则|设定|限制)"
)
# "Forget what you were told before" in languages the imperatives below do not reach.
_FORGET = (
    # Persian, Arabic, Urdu: "forget / ignore the earlier instructions"
    r"(?:دستورها|دستورات|قوانین|قواعد|حرف)\S*\s+(?:\S+\s+){0,2}?(?:را\s+)?(?:فراموش|نادیده)|"
    r"(?:انس|انسى|انسَ|تجاهل|تناسى)\s+(?:\S+\s+){0,2}?(?:التعليمات|الأوامر|التوجيهات|القواعد|كل\s+(?:شي|شيء|اللي))|"
    r"(?:پچھلی|سابقہ)\s+(?:\S+\s+){0,2}?(?:ہدایات|باتیں)\s+(?:\S+\s+){0,2}?بھول|"
    # Turkish puts the verb last too ("the earlier instructions forget")
    r"\b(?:talimat|kural|söylenen)\S*\s+(?:\S+\s+){0,2}?(?:unut|görmezden)|"
    # Hindi and its neighbours: "forget the earlier talk / instructions"
    r"(?:पहले|पहल्यां|पिछले|पिछली|पुराने|पुरानी)\s+(?:\S+\s+){0,3}?(?:बात|निर्देश|हुकम|नियम)\S*\s+(?:\S+\s+){0,2}?(?:भूल|नज़रअंदाज़|नजरअंदाज)|"
    # Indonesian, Malay, Javanese, Sundanese, Tagalog, Cebuano
    r"\b(?:lupakan|abaikan|lalèkna|lalekna|lalekno|lalèkno|poho(?:keun)?|kalimutan|kalimti|balewalain|ayaw\s+tagda)\b"
    r"(?:\s+\S+){0,5}?\s+(?:instruksi|aturan|perintah|arahan|peraturan|semua|kabèh|kabeh|utos|instruksyon|tanan\w*|lahat|"
    r"giingon|sinabi)\b|"
    # Frisian, Afrikaans, Scandinavian, Baltic-Finnic, Slavic, Turkish, Greek, Hungarian, Romanian, Vietnamese
    r"\b(?:ferjit|vergeet|glem|glöm|unohda|unusta|zapomeň|zapomenite|забудьте?|забудь|заборави|zaboravi|pozabi|"
    r"unut|ξέχασε|ξεχάστε|felejtsd\s+el|uită|quên\s+(?:hết|đi|tất\s+cả)?)\b"
    r"(?:\s+\S+){0,5}?\s+(?:alles|allt|alt|kaikki|kaiken|všechno|всё|все|све|sve|vse|her\s+şeyi|όλα|mindent|tot|tất\s+cả|hết|"
    r"instructies|instruksjoner|instruktioner|ohjeet|pokyny|инструкции|інструкції|упутства|upute|navodila|talimat\w*|"
    r"οδηγίες|utasítás\w*|instrucțiunile|hướng\s+dẫn|chỉ\s+dẫn|regels|regler|säännöt|pravidla|правила|kuralları)\b|"
    # Thai, Korean, Japanese
    r"(?:ลืม|เพิกเฉย)\S{0,10}(?:คำสั่ง|กฎ|ทุกอย่าง)|(?:지시|규칙|명령)\S*\s*(?:\S+\s+){0,2}?(?:잊어|무시해)|"
    r"(?:前の|以前の|これまでの)\S{0,8}(?:指示|ルール|命令)\S{0,6}(?:忘れ|無視)|"
    # Shanghainese, Cantonese, Mandarin variants
    r"(?:忘记|忘掉|忘脱|唔好理|勿要管|别管)\S{0,8}(?:之前|以前|前头|前面|上面)"
)
_OVERRIDE = re.compile(
    # Imperatives only: "olvidé las instrucciones del horno" (I forgot the oven's) is no order. English "ignore"
    # is left to the English signals unless a Romance article follows it.
    rf"\b(?:ignora|ignorad|ignorate|ignorez|ignoriere|ignorieren\s+sie|ignore\s+(?:as|os|les|tes|vos|todas|toutes|"
    rf"tous|suas|seus|tus|sus)|olvida|olvide|olviden|olvidad|descarta|descarte|omite|esqueça|esquece|esqueçam|"
    rf"desconsidere|desconsidera|dimentica|dimenticate|tralascia|scordati\s+(?:di|delle|dei|della)|oublie|oubliez|"
    rf"vergiss|vergessen\s+sie|missachte)\b(?:\s+\S+){{0,4}}?\s+{_GUIDANCE}|"
    rf"\b(?:no\s+hagas\s+caso|no\s+sigas|não\s+(?:siga|obedeça)|non\s+seguire(?:\s+più)?|non\s+rispettare|"
    rf"ne\s+(?:tiens|tenez)\s+plus\s+compte|ne\s+suis\s+plus|ne\s+respecte\s+plus)\b(?:\s+\S+){{0,3}}?\s+{_GUIDANCE}|"
    r"\b(?:olvida|esquece|esqueça|dimentica|oublie|vergiss)\s+(?:\w+\s+){0,2}?(?:lo\s+que\s+te|o\s+que\s+te|"
    r"quello\s+che\s+ti|ce\s+qu['’]on\s+t['’]a|tout\s+ce\s+qu|alles,?\s+was\s+(?:man\s+)?dir)|"
    r"(?:忽略|无视|忘记|忘掉|不要理会|不要遵守|别管)(?:\S{0,12}?)(?:指令|指示|规则|提示|设定|限制|要求)|"
    r"(?:忽略|无视|忘记|忘掉)(?:上面|以上|之前|前面)的?(?:内容|文字|文本|对话|一切|所有)|"
    r"\b(?:negeer|vergeet|ignorera|glöm|zignoruj|zapomnij)\b(?:\s+\S+){0,4}?\s+(?:instructies|regels|richtlijnen|"
    r"aanwijzingen|instruktioner|regler|riktlinjer|instrukcje|polecenia|zasady)\b|"
    r"(?:指示|命令|ルール|設定)\S{0,6}?無視|" + _FORGET
)
_AI = r"(?:ia|ki|ai|ии|llm|gpt)"
_ASSISTANT = (
    r"(?:asistente|assistente|assistant|assistent|assistenten|ассистент\w*|помощник\w*|asystent\w*|bot|chatbot|"
    r"modelo|modello|modèle|modell|model|модель)"
)
_ADDRESSED_AI = re.compile(
    # A greeting or a label: "Atenção, IA:", "Beste AI-assistent,", "Nota per l'assistente IA:", "Hinweis an den KI-"
    rf"(?:^|[.!?\n:;]\s*)(?:(?:atenção|atención|attention|attenzione|achtung|hinweis|nota|note|notiz|mensaje|mensagem|"
    rf"messaggio|message|nachricht|bericht|meddelande|instrucci[oó]n|instrução|istruzione|instruction|anweisung|"
    rf"instructie|beste|lieve|querid[ao]|car[oa]|cher|chère|liebe[rs]?|hola|olá|ciao|bonjour|hallo|hej|hei|"
    rf"внимание|уважаемый|дорогой|примечание|сообщение|заметка|uwaga|drogi)\b,?\s+)?(?:(?:para|per|pour|an|für|"
    rf"voor|till|à|a|al|ao|all['’]|для|dla)\s+)?(?:(?:la|a|l['’]|le|den|die|de|el|o|lo|the|het)\s*)?"
    rf"(?:{_AI}(?:[\s-]+{_ASSISTANT})?|{_ASSISTANT}(?:\s+(?:de\s+|di\s+)?{_AI})?)\b(?:\s+\w+){{0,4}}?\s*[:,]|"
    # The reader of this text, as a machine: "la IA que lea esto", "die KI, die dies liest"
    rf"\b{_AI}\b,?\s+(?:que\s+lea|que\s+leia|che\s+legge|qui\s+lit|die\s+(?:dies|das|diesen)|der\s+(?:dies|das)|"
    rf"die\s+dit|som\s+läser|который|która)\b|(?:人工智能|ai)?助手请注意|(?:ai|人工知能)?アシスタント(?:へ|に)|"
    rf"(?:에게|님)\s*[:,]|"
    # Hindi, Bengali, Arabic, Persian, Turkish, Indonesian, Vietnamese, Thai: "note for the assistant", "assistant:"
    r"(?:एआई\s+)?सहायक(?:\s+(?:के\s+लिए|ध्यान\s+दें|को|से))?(?:\s+नोट)?\s*[:,]|"
    r"(?:এআই\s+)?সহকারী(?:র)?(?:\s+জন্য)?(?:\s+নোট)?\s*[:,]|"
    r"(?:إلى|ملاحظة\s+(?:إلى|لل))\s*(?:ال)?مساعد|(?:^|[.!?\n:]\s*)(?:أيها\s+)?المساعد\s*[:،,]|"
    r"(?:برای|به)\s+دستیار|(?:^|[.!?\n:]\s*)دستیار\s*[:،,]|"
    r"\basistan(?:a|ım)?(?:\s+not(?:u)?)?\s*[:,]|"
    r"\b(?:untuk|kepada|catatan\s+untuk)\s+(?:sang\s+)?asisten\b|(?:^|[.!?\n:]\s*)asisten\s*[:,]|"
    r"\b(?:gửi|ghi\s+chú\s+cho|nhắn)\s+trợ\s+lý|(?:^|[.!?\n:]\s*)trợ\s+lý\s*[:,]|"
    r"(?:ถึง|สำหรับ|ข้อความถึง)\s*ผู้ช่วย|(?:^|[.!?\n:]\s*)ผู้ช่วย\s*[:,]"
)
_PERSONA = re.compile(
    r"\b(?:eres|ahora\s+eres|sei|ora\s+sei|você\s+(?:agora\s+)?é|tu\s+és|tu\s+es|vous\s+êtes|du\s+bist|"
    r"je\s+bent|jij\s+bent|du\s+är|ty\s+(?:teraz\s+)?jesteś|ты\s+(?:теперь\s+)?(?:[—-]\s+)?|теперь\s+ты|"
    r"actúa\s+como|actua\s+como|finge\s+ser|finja\s+ser|haz\s+de|fai\s+finta\s+di\s+essere|comportati\s+come|"
    r"agisci\s+come|aja\s+como|atue\s+como|fais\s+comme\s+si|agis\s+comme|joue\s+le\s+rôle|spiele\s+die\s+rolle|"
    r"tu\s+so,?\s+als)\b(?:\s+\S+){0,3}?\s+(?:un\s+|una\s+|um\s+|uma\s+|une?\s+|ein\s+|eine\s+)?(?:asistente|"
    r"assistente|assistant|assistent|ia|ki|ai|modelo|modello|modèle|bot|chatbot)\b|"
    r"(?:你现在是|你是一个|你现在扮演|请扮演|扮演一个)"
)
# "Now you are ..." in other languages, whoever follows: in a letter, only whatever reads it is told what it now is.
PERSONA_NOW = re.compile(
    r"\b(?:теперь\s+ты|ты\s+теперь|отныне\s+ты|(?:desde\s+|a\s+partir\s+de\s+)?ahora\s+(?:tú\s+)?eres|"
    r"(?:ora|adesso|d['’]ora\s+in\s+poi)\s+(?:tu\s+)?sei|agora\s+(?:você\s+é|tu\s+és|és)|"
    r"(?:désormais|maintenant)\s+tu\s+es|(?:ab\s+)?(?:jetzt|nun|sofort)\s+bist\s+du|(?:od\s+)?teraz\s+jesteś|"
    r"nu\s+ben\s+je|nu\s+är\s+du|nyt\s+olet|teď\s+jsi|sada\s+si|od\s+sad\s+si|acum\s+ești|artık\s+sen|"
    # voseo ("ahora vos sos"), Turkish ("from now on you are ..."), Malay and Indonesian ("mulai sekarang kamu jadi")
    r"(?:desde\s+)?ahor(?:a|ita)\s+vos\s+sos|bundan\s+sonra\s+sen\s+(?:\S+\s+){0,2}?\S+?s[iıuü]n|"
    r"(?:mulai|dari|mulai\s+dari)\s+s(?:e)?karang\s+(?:kamu|anda|ngana|awak|hang|engkau|kau|ente)\s+"
    r"(?:jadi|adalah|menjadi|ialah))\b|"
    r"من\s+(?:الحين|الآن)\s+(?:أنت|انت)|として話して|になりきって|现在你是|現在你是|从现在起你是"
)
_FREE = re.compile(
    r"\b(?:sin|senza|sans|sem|ohne)\s+(?:ning[uú]n\s+|alcun\w*\s+|aucun\w*\s+|nenhum\w*\s+|jegliche\s+)?"
    r"(?:filtros?|filtri|filtres?|filter|restricci\w+|restrizion\w+|restrictions?|restriç\w+|einschränkungen|"
    r"límites|limiti|limites|limits?|censura|censure|zensur|reglas|regole|règles|regras|regeln)\b|"
    r"\b(?:zonder|utan|bez|без)\s+(?:enige\s+|några\s+|żadnych\s+|каких-либо\s+)?(?:beperkingen|regels|filters?|"
    r"begränsningar|regler|filter|ograniczeń|zasad|ограничений|правил|фильтров|цензуры)\b|"
    r"(?:没有任何限制|没有限制|无限制|不受限制|不受任何限制|没有任何规则|无任何过滤|制限なし|制限のない)"
)
_STANDING = re.compile(
    r"\b(?:a\s+partir\s+de\s+(?:ahora|este\s+momento|hoy|agora)|de\s+ahora\s+en\s+adelante|desde\s+ahora|"
    r"de\s+agora\s+em\s+diante|daqui\s+(?:em\s+diante|para\s+a\s+frente)|d['’]ora\s+in\s+(?:poi|avanti)|"
    r"da\s+(?:ora|adesso|oggi)\s+in\s+(?:poi|avanti)|da\s+adesso|désormais|à\s+partir\s+de\s+maintenant|"
    r"dorénavant|ab\s+(?:jetzt|sofort|heute)|von\s+nun\s+an|künftig|voortaan|vanaf\s+nu|från\s+och\s+med\s+nu|"
    r"hädanefter|od\s+teraz|odtąd|с\s+этого\s+момента|отныне|впредь|bundan\s+(?:sonra|böyle)|"
    r"mulai\s+(?:s(?:e)?karang|saat\s+ini|hari\s+ini)|lepas\s+ni|desde\s+ahorita|từ\s+(?:giờ|nay|bây\s+giờ)(?:\s+trở\s+đi)?)\b|"
    r"(?:من\s+(?:هسّ?ا|هلّ?ق|هلأ)(?:\s+و\s*طالع|\s+ورايح)?|从现在开始|从现在起|从今以后|今后|これからは|今後は|अब\s+से|এখন\s+থেকে|من\s+الآن|از\s+(?:این\s+به\s+بعد|حالا)|"
    r"ต่อจากนี้|จากนี้ไป|앞으로는|지금부터)"
)
_LANGUAGES = (
    r"(?:inglés|ingl[eê]s|inglese|anglais|englisch|español|espanhol|spagnolo|espagnol|spanisch|francés|francês|"
    r"francese|français|französisch|alemán|alemão|tedesco|allemand|deutsch|italiano|italien|italienisch|"
    r"portugu[eé]s|portoghese|portugais|portugiesisch|chino|chinês|cinese|chinois|chinesisch|japonés|japonês|"
    r"giapponese|japonais|japanisch|ruso|russo|russe|russisch|árabe|arabo|arabe|arabisch|coreano|coréen|"
    r"koreanisch|emojis?|duits|engels|frans|spaans|italiaans|chinees|japans|russisch|tyska|engelska|franska|"
    r"spanska|finska|svenska|niemieck\w+|angielsk\w+|немецком|английском|французском|испанском|китайском|японском|"
    r"английский|英语|英文|法语|德语|西班牙语|意大利语|葡萄牙语|日语|俄语|韩语|中文|表情符号|英語|日本語|中国語|ドイツ語|"
    r"フランス語)"
)
_ANSWER_FORM = re.compile(
    rf"\b(?:respond\w*|contest\w*|rispond\w*|répond\w*|antworte\w*|escrib\w+|escrev\w+|scriv\w+|écri\w+|"
    rf"schreib\w*|antwoord\w*|schrijf|svara|skriv|kommunicera|communiceer|odpowiadaj|pisz|отвечай\w*|пиши)\b"
    rf"(?:\s+\S+){{0,4}}?\s+(?:en|em|in|auf|in\s+het|på|po|на)\s+{_LANGUAGES}\b|"
    rf"\b(?:solo|sólo|solamente|únicamente|apenas|somente|soltanto|solo|uniquement|seulement|nur(?:\s+noch)?)\s+"
    rf"(?:en|em|in|auf|in\s+het|på|на)\s+{_LANGUAGES}\b|(?:只能?|仅)用{_LANGUAGES}|{_LANGUAGES}(?:のみ|だけ)で|"
    r"\b(?:в\s+(?:каждом\s+)?ответе?|в\s+каждый\s+ответ|in\s+elk\s+antwoord|i\s+varje\s+svar)\b|"
    r"\b(?:cada|toda|todas\s+las|ogni|chaque|toute|jede[rn]?)\s+(?:respuesta|resposta|risposta|réponse|antwort)|"
    r"\bher\s+(?:cevab|yan[iı]t)\w*|\bsetiap\s+(?:jawapan|jawaban|balasan)\b|"
    r"(?:每个|每次|所有)(?:回答|回复)|"
    # Hindi, Bengali, Arabic, Persian, Turkish, Indonesian, Vietnamese, Thai: "answer only in <language>"
    r"(?:केवल|सिर्फ)\s+\S+\s+में\s+(?:जवाब|उत्तर)|শুধু\s+\S+(?:\s+ভাষায়)?\s+(?:উত্তর|জবাব)|"
    r"(?:أجب|رد|اكتب)\S*\s+(?:فقط\s+)?باللغة|فقط\s+به\s+(?:زبان\s+)?\S+\s+(?:پاسخ|جواب)|"
    r"\bsadece\s+\S+(?:ça|çe|ca|ce)\s+(?:cevap|yanıt|yaz)|\b(?:jawab|balas|tulis)\w*\s+(?:hanya\s+)?(?:dalam|pakai|dengan)\s+"
    r"bahasa|\b(?:chỉ\s+)?trả\s+lời\s+(?:chỉ\s+)?bằng\s+tiếng|ตอบ(?:เป็น)?(?:เฉพาะ)?ภาษา"
)
_THE_USER = re.compile(
    r"\b(?:al|del|el|ao|do|o|all['’]|dell['’]|l['’]|à\s+l['’]|de\s+l['’]|dem|des|der|den)\s*"
    r"(?:usuario|usuário|utilizador|utente|utilisateur|nutzer[s]?|benutzer[s]?|cliente)\b|用户|"
    r"\b(?:de\s+)?gebruiker\b|\banvändaren\b|\bпользовател\w+|\bużytkownik\w*|\bkullanıcı\w*|ユーザー|사용자|"
    r"उपयोगकर्ता|ব্যবহারকারী|المستخدم|کاربر|\bpengguna\b|người\s+dùng|ผู้ใช้"
)
_SENSITIVE = re.compile(
    r"\b(?:contraseñas?|senhas?|password|mot\s+de\s+passe|passwort|kennwort|pin|"
    r"(?:número|numero|numéro)\s+(?:\w+\s+){0,3}?(?:tarjeta|cartão|carta|carte)|kartennummer|kreditkarte\w*|"
    r"tarjeta\s+de\s+crédito|cartão\s+de\s+crédito|carta\s+di\s+credito|carte\s+(?:bancaire|de\s+crédit)|"
    r"código\s+de\s+seguridad|código\s+de\s+segurança|codice\s+di\s+sicurezza|cvv|"
    r"prompt\s+(?:del|di|do)\s+sistema|prompt\s+système|systemprompt|"
    r"historial|histórico|cronologia|historique|verlauf|correos|e-?mails|contactos|contatos|contatti|contacts|kontakte|"
    r"fotos|fichiers|archivos|arquivos|dateien|wachtwoord\w*|lösenord\w*|hasło|hasła|kaartnummer|kortnummer|"
    r"парол\w+|номер\w*\s+карты|cvv|переписк\w+|истори\w+\s+чата)\b|"
    r"(?:密码|信用卡|卡号|银行卡|聊天记录|联系人|邮件|パスワード|カード番号|システムプロンプト)"
)
_SECRECY = re.compile(
    r"\b(?:sin\s+(?:decir|avisar|preguntar|informar)|no\s+(?:le\s+)?(?:digas|adviertas|avises|cuentes|menciones)|"
    r"sem\s+(?:avisar|perguntar|dizer|informar)|não\s+(?:diga|conte|avise|mencione|expliques?)|"
    r"senza\s+(?:dire|avvisare|chiedere)|non\s+(?:dire|dirgli|avvisare|spiegare|menzionare)|"
    r"sans\s+(?:le\s+)?(?:dire|prévenir|demander)|ne\s+(?:lui\s+)?(?:dis|dites)\s+rien|"
    r"ohne\s+(?:ihn|sie|den\s+nutzer)?\s*zu\s+(?:fragen|informieren)|sag\s+(?:ihm|ihr|dem\s+nutzer)?\s*nichts|"
    r"no\s+expliques|n['’]explique\s+pas|erkläre\s+nicht|vermeld\s+niet|zeg\s+niets|zonder\s+te\s+(?:vragen|"
    r"melden|zeggen)|nämn\s+inte|säg\s+inget|utan\s+att\s+(?:fråga|säga|berätta)|nie\s+mów|bez\s+pytania|"
    r"не\s+(?:говори|сообщай|упоминай)|ничего\s+не\s+говори|без\s+ведома)\b|"
    r"(?:不要告诉|别告诉|不要解释|不要让用户知道|言わずに|伝えずに|内緒で)"
)
_SEND = re.compile(
    r"\b(?:env[ií]a\w*|mand[ae]\w*|reenv[ií]a\w*|envie|encaminh\w+|invia\w*|inoltra\w*|envoie\w*|transf[eè]re\w*|"
    r"schick\w*|sende\w*|leite\w*|incluir|incluye|inclui|includi|inclus|füge|aggiungi|añade|agrega|ajoute|"
    r"adicione|acrescente|leite\w*|weiterleit\w*|stuur\w*|doorsturen|skicka|vidarebefordra|wyślij|przekaż|"
    r"отправ\w+|перешли\w*|пересла\w+|вставь)\b|(?:发送|发给|转发|发到|寄给|加上|附上|送信|転送)"
)
_TRIGGER = re.compile(
    r"\b(?:cuando|si|quando|se|quand|lorsque|wenn|falls|sobald)\s+(?:\w+\s+){0,3}?(?:pregunt\w+|pida|perguntar|"
    r"pergunte|pedir|chied\w+|domand\w+|demande\w*|fragt|nachfragt|erwähnt|menciona\w*|mention\w+|parla\w*)\b|"
    r"\b(?:vez\s+que|volta\s+che|fois\s+que|als|wanneer|när|gdy|kiedy|когда|если)\s+(?:\w+\s+){0,3}?(?:pregunt\w+|"
    r"pergunt\w+|vraagt|noemt|frågar|nämner|zapyta|спрос\w+|упомян\w+|попрос\w+)|"
    r"(?:当|如果|一旦)(?:用户|有人|任何人)\S{0,6}?(?:问|提到|询问|要求)"
)
_TELL = re.compile(
    r"\b(?:dile|díganle|dígale|diles|diga-lhe|diga\s+ao|conte\s+ao|digli|ditegli|dica\s+all['’]|dis-lui|dites-lui|"
    r"dis\s+à|dites\s+à|sag\s+(?:ihm|ihr|dem)|sagen\s+sie\s+(?:ihm|ihr|dem)|diga\s+que|di\s+que|dile\s+que|"
    r"dis\s+que|dites\s+que|d[iì]['’]?\s+che|sag,?\s+dass|zeg\s+dat|säg\s+att|powiedz|скажи\w*|сообщи)\b|"
    r"(?:告诉(?:他|她|用户)|对用户说)"
)
_NEW_TASK = re.compile(
    r"\b(?:tu\s+(?:nueva\s+)?tarea\s+(?:ahora\s+)?es|tu\s+nueva\s+tarea|sua\s+(?:nova\s+)?tarefa\s+(?:agora\s+)?é|"
    r"il\s+tuo\s+(?:nuovo\s+)?compito\s+(?:ora\s+)?è|ta\s+(?:nouvelle\s+)?tâche\s+(?:est\s+)?(?:maintenant|désormais)|"
    r"ta\s+nouvelle\s+tâche|deine\s+(?:neue\s+)?aufgabe\s+ist\s+(?:jetzt|nun|ab\s+sofort)|deine\s+neue\s+aufgabe|"
    r"en\s+(?:lugar|vez)\s+de\s+(?:responder|resumir)|em\s+vez\s+de\s+(?:responder|resumir)|invece\s+di\s+"
    r"(?:rispondere|riassumere)|au\s+lieu\s+de\s+(?:répondre|résumer)|statt\s+(?:zu\s+antworten|zusammenzufassen)|"
    r"invece|stattdessen|en\s+su\s+lugar|negeer\s+de\s+vraag|ignorera\s+frågan|ignora\s+la\s+pregunta|"
    r"ignore\s+la\s+question|ignoriere\s+die\s+frage|не\s+отвечай\s+на\s+вопрос\w*|вместо\s+(?:того|ответа))\b|"
    r"(?:你的(?:新)?任务是|现在你的任务|而是改为|不要回答用户的问题|答えず|回答せず|代わりに)"
)
_OUTSIDE = re.compile(
    r"https?://|[\w.+-]+@[\w-]+\.[\w.-]+|\b[a-z0-9-]+\.(?:example|com|net|org|io|de|es|it|fr|br|cn|ru|nl|se|pl|pt|jp)\b"
)
_CLASSES = (
    ("an AI addressed", _ADDRESSED_AI),
    ("a persona", _PERSONA),
    ("free of rules", _FREE),
    ("a standing order", _STANDING),
    ("the answer's form", _ANSWER_FORM),
    ("the user in the third person", _THE_USER),
    ("a sensitive object", _SENSITIVE),
    ("secrecy", _SECRECY),
    ("a trigger about a later question", _TRIGGER),
    ("an order to tell the user", _TELL),
    ("the task changed", _NEW_TASK),
)
# One class alone counts for nothing here (the phrase signals weigh it); two are what planted text has.
_BY_COUNT = (0.0, 0.0, 0.5, 0.65)


def intl_order(text: str) -> Finding | None:
    """An order to the reader in another language: an override, or two classes of evidence together."""
    override = _OVERRIDE.search(text)
    found = [name for name, pattern in _CLASSES if may_match(pattern, text) and pattern.search(text)]
    send = _SEND.search(text)
    if send and _OUTSIDE.search(text, send.start()):
        found.append("data sent out")
    weight = _BY_COUNT[min(len(found), len(_BY_COUNT) - 1)]
    if override:
        weight = max(weight, 0.55 if not found else 0.65)
        found.insert(0, f"an override ('{override.group(0)}')")
    if weight <= 0:
        return None
    return weight, ", ".join(found)


SIGNALS_INTL_ORDERS = (Signal("an order to the reader (other language)", intl_order, in_roles=True),)
