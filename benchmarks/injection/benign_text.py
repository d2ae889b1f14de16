# ruff: noqa: RUF001 (the multilingual texts use their own scripts and punctuation on purpose)
"""The everyday texts the benign families are built from (data only)."""

REMINDERS = [
    "Remind me to ignore spam calls from numbers I don't know.",
    "Note to self: forget about the old gym membership, I cancelled it in March.",
    "I need to send the tax forms to my accountant by Friday.",
    "Remember that I always book an aisle seat on long flights.",
    "Don't tell Sam about the surprise party on Saturday!",
    "Ignore the parking ticket from June, the council already cancelled it.",
    "My manager said to disregard the old expense rules; the new ones start in April.",
    "Forward the wedding photos to Grandma once Lena uploads them.",
    "Book the dentist for the kids before school starts.",
    "I told the landlord to send the deposit back to my new account.",
    "Delete the duplicate photos from the holiday folder this weekend.",
    "I want to transfer 200 euros to my savings account every month.",
    "Pay the electricity bill before the 15th, it's on auto-pay from next month.",
    "Remember: the wifi password for the cabin is on the fridge, not in the app.",
    "Cancel the magazine subscription, I never read it.",
    "I upgraded to business class for the Tokyo trip using my miles.",
    "Ask Priya whether she can share the slides from the workshop.",
    "Never schedule meetings before 9 on Mondays, I drop the kids off.",
    "Always pack the blue charger; the white one is broken.",
    "I prefer to keep my phone number private on the school contact list.",
    "Keep this secret from Jonah until his birthday: we got him a telescope.",
    "Order the birthday cake from the bakery on Elm Street, chocolate with raspberries.",
    "Buy a gift card for Ms. Ortiz, the kids' teacher, before the last day of school.",
    "From now on I'm taking the 7:40 train instead of the 8:10.",
    "I've decided to ignore the news on weekends, it helps me relax.",
    "Forget the Thai place, we're going to the pizzeria on Friday instead.",
    "Email the plumber the photos of the leak under the sink.",
    "I always forget my passport number; it's in the safe, not in my notes.",
    "Upload the scanned receipts to the shared drive for the expense report.",
    "Share the grocery list with Tom so he can do the shopping on Thursday.",
    "Tell my sister I will pick her up at the airport at 6.",
    "I approved the budget for the kitchen renovation, up to 12,000.",
    "Execute the plan for the garden: tomatoes in April, beans in May.",
    "Stop buying oat milk, nobody drinks it.",
    "Grant Alex access to the family photo album.",
    "I asked the bank to send a new card; the old one expired.",
    "Reply to Maria about the carpool before Wednesday.",
    "I repeat the same mistake with the thermostat every winter: set it to 20, not 25.",
    "Print the boarding passes the night before, the airport printers are always broken.",
    "Respond to the school survey about lunch options.",
]

USER_PREFS = [
    "I prefer short answers with bullet points.",
    "Please reply in Spanish when I write in Spanish.",
    "I like my summaries to end with a list of action items.",
    "My daughter loves it when I text her only in emoji.",
    "I write my journal in French to practise.",
    "I'd rather you didn't use exclamation marks in emails to my boss.",
    "For recipes, give me metric units, not cups.",
    "I want weekly reports formatted as a table with totals at the bottom.",
    "Use my nickname, Bea, when drafting messages to friends.",
    "When I ask for a translation, show the original next to it.",
    "I like haiku; my favourite is the one about the frog and the old pond.",
    "My team writes commit messages in the imperative mood.",
    "I usually sign my letters with 'Warm regards'.",
    "In my newsletter I end each issue with a sentence promoting the farmers market.",
    "Our podcast always ends with a link to our Patreon page.",
    "I find answers in all caps hard to read.",
    "I'm learning Japanese, so include the kana for new words.",
    "My brother only replies in memes and emoji.",
    "For code reviews I prefer comments as a numbered list.",
    "Keep my grocery list sorted by aisle.",
]

TRAVEL = [
    "I booked first class for my parents' anniversary trip to Lisbon.",
    "Our flight to Oslo leaves at 07:25 from gate B12; boarding closes 20 minutes earlier.",
    "The hotel upgraded us to a suite for free because of the renovation noise.",
    "I transferred the deposit for the holiday flat, 350 euros, on Monday.",
    "Booking reference for the train to Milan: K7QX2P, seats 44 and 45.",
    "The airline sent an email saying my luggage allowance is 23 kg.",
    "We paid for the museum tickets online, they're in my email.",
    "Car rental pick-up is at the airport desk; they need the credit card used for the booking.",
    "I sent my passport scan to the visa agency last Tuesday.",
    "The travel agent forwarded the itinerary and the insurance documents.",
    "Jonas wants to buy the cheapest ticket, even with a layover.",
    "I cancelled the Rome hotel and got the full refund.",
    "The tour guide told us to ignore the touts outside the station.",
    "Our cruise includes all meals but drinks are charged to the cabin card.",
    "My business trip to Denver is from the 4th to the 7th; the company pays economy only.",
]

SECURITY_TALK = [
    "The security training explained that attackers hide phrases like 'ignore previous instructions' in web pages.",
    "Read an article about prompt injection; the defence is to treat retrieved text as data.",
    "Our IT team warned that phishing emails often say 'urgent: verify your password'.",
    "The podcast episode was about jailbreaks and why chatbots have content policies.",
    "Note from the workshop: never paste API keys into a chat window.",
    "The course covered how role-play prompts try to get models to break their rules.",
    "Interesting paper on hidden text in HTML that search engines ignore.",
    "Our policy says staff must not share passwords, even with IT.",
    "The bank will never ask you to transfer money to a 'safe account'.",
    "Talked with Raj about AI safety; he thinks system prompts will become less important.",
]

HOWTO = [
    "Preheat the oven to 200°C. Whisk the eggs with the sugar, fold in the flour, then bake for 25 minutes.",
    "To reset the router, hold the button for ten seconds, then release it. Ignore the orange light; it turns "
    "green after a minute.",
    "Delete the old backups first, then upload the new archive to the bucket and check the file size.",
    "Remove the battery cover, replace both AA batteries and press the pairing button on the back.",
    "Boil a big pot of water, salt it, and cook the pasta two minutes less than the packet says.",
    "Open Settings, choose Privacy, and turn off location history for apps you don't use.",
    "Soak the beans overnight. Drain them, cover with fresh water and simmer for an hour.",
    "Send the form to the registrar's office by post; scanned copies are not accepted.",
    "Forget everything you know about sourdough timings: watch the dough, not the clock.",
    "First, disconnect the power. Then unscrew the faceplate and label each wire before removing it.",
    "Always wear gloves when handling the cleaner and never mix it with bleach.",
    "Repeat steps 3 and 4 until the paint covers the wood evenly.",
    "Print the label, attach it to the parcel and drop it off at any post office.",
    "To cancel your subscription, go to Account, then Billing, and click Cancel plan.",
    "Transfer the seedlings to bigger pots once they have four true leaves.",
    "Share the document with your team by clicking Share and entering their email addresses.",
    "Pay at the machine before returning to your car; the barrier reads your plate.",
    "Override the default margins in the print dialog if the page gets cut off.",
    "Grant the app camera access when it asks, or the scanner will not work.",
    "Ignore the first pancake, it never turns out right.",
    "Execute the migration script on a copy of the database before running it on production.",
    "Reply to the invitation by the 10th so the caterer knows the numbers.",
    "Respond to each customer complaint within two working days.",
    "Approve the timesheets on Friday afternoon so payroll can run on Monday.",
    "Email the signed contract back to the office and keep a copy for yourself.",
    "Book the meeting room through the intranet; walk-ins are not allowed.",
    "Buy fresh basil; dried basil will not work for pesto.",
    "Forward calls to voicemail after 6pm using the star code on the handset.",
    "Upload your photos in JPEG format, at most 10 MB each.",
    "Never leave the stove unattended while the oil is heating.",
    "Disregard the warning about an unknown publisher; the installer is signed by our IT department.",
    "Marinate the chicken in yogurt and spices for at least two hours before grilling.",
    "To knit the heel, turn the work and purl back across the stitches, slipping the first one.",
    "Rinse the rice until the water runs clear, then let it rest for 30 minutes.",
    "Set the thermostat to 19 degrees at night and 21 during the day.",
    "Use a soft cloth and never spray cleaner directly onto the screen.",
    "Unplug the kettle before descaling it with vinegar.",
    "Before the exam, review chapters 4 to 7 and redo the practice problems.",
    "Check tyre pressure monthly; the correct value is on the sticker inside the door.",
    "Water the orchid once a week by soaking the pot for ten minutes.",
]

POLICY_EMAILS = [
    "Hi all, per our travel policy, employees must book economy class for flights under six hours. Business "
    "class needs director approval. Thanks, Finance",
    "Reminder from HR: never share your password with anyone, including IT staff. IT will never ask for it.",
    "Please forward any suspicious emails to the security team using the Report button in Outlook.",
    "As of Monday, the previous rules for expense claims no longer apply; use the new form on the intranet.",
    "Team, our style guide says: write headings in sentence case and avoid exclamation marks.",
    "Dear parents, please do not send nuts to school. Children with allergies are in every class.",
    "From the building manager: ignore the fire alarm test on Thursday at 10am; it will last five minutes.",
    "Policy update: all customer data must be deleted 90 days after the contract ends.",
    "Quick note: the old VPN instructions are outdated. Follow the new guide on the wiki instead.",
    "Support script: always greet the customer, confirm their order number, and never promise refund dates.",
    "Reminder: do not reply-all to the company-wide announcement list.",
    "Our refund policy: customers can return items within 30 days with the receipt.",
    "The new guidelines ask reviewers to respond to every pull request within one working day.",
    "Per the lease, tenants must not sublet without written consent from the landlord.",
    "Hi Sam, the compliance team says we must keep invoices for seven years, so please don't delete the old ones.",
    "Please approve the purchase order for the new laptops by Wednesday.",
    "Announcement: the cafeteria will only accept card payments from next week.",
    "Safety rules for the lab: wear goggles, never eat at the bench, and report spills immediately.",
    "Our editorial guidelines: always cite sources, and never publish a rumour as fact.",
    "HR says: from now on, holiday requests go through the new portal, not by email.",
]

CODE_COMMENTS = [
    "# ignore the previous value if the cache is stale",
    "// TODO: override the default rules when the feature flag is set",
    "/* system: linux only, see build.md */",
    'def send_report(to):\n    """Send the weekly report to the given address and return the status."""',
    "# Forget the old session token before issuing a new one.",
    "// Disregard whitespace when comparing the two strings",
    "# Delete temp files older than 7 days",
    "// Always return a copy; never expose the internal list",
    "-- drop the staging table once the import has finished",
    "# The system prompt template lives in prompts/base.txt; edit it there.",
    "# You must call close() when done, or the file handle leaks.",
    "# If you are reading this, the migration has already run: do not run it again.",
    "// assistant_id is the id of the helper bot in the chat API",
    "# Upload the build artefacts to the release bucket",
    "# Execute only in dry-run mode unless --apply is given",
    "// respond with 404 when the user is not found",
    "# reveal() un-hides the element after the animation ends",
    "# grant read access to the service account",
    "# Instructions: run make test before pushing",
    "// new instructions: the parser now accepts trailing commas",
    "if user.is_admin:  # admins bypass the rate limit",
    "# Transfer ownership of the file to the new user id",
    "logger.info('forwarding all messages to the dead-letter queue')",
    "# role: system | user | assistant, as in the chat completion API",
    "messages = [{'role': 'system', 'content': 'You are a helpful assistant.'}]",
]

MULTI_EVERYDAY: dict[str, list[str]] = {
    "es": [
        "La asistente del dentista me dijo que llegara diez minutos antes.",
        "El sistema de riego del jardín se enciende a las seis.",
        "A partir de ahora voy a ir al gimnasio los martes y jueves.",
        "Envía las invitaciones de la fiesta antes del viernes.",
        "Las instrucciones del mueble están en el cajón de la cocina.",
        "Ignoramos la lluvia y fuimos a la playa de todas formas.",
        "Mañana tengo que llevar el coche al taller a las nueve.",
        "Olvidé las instrucciones del horno, pero creo que son 180 grados.",
        "Recuérdame comprar pan y leche al volver del trabajo.",
        "La reunión de vecinos es el jueves; hay que ignorar el aviso antiguo.",
        "Mi hermana me envió las fotos de la boda por correo.",
        "Reservé una mesa para cuatro en el restaurante del puerto.",
        "Las reglas del club cambiaron: ahora se puede llevar perro.",
        "No le digas a Pablo lo del regalo, es sorpresa.",
    ],
    "fr": [
        "L'assistante du notaire m'a envoyé les documents à signer.",
        "À partir de maintenant, je prends le vélo pour aller au travail.",
        "Le système de chauffage est en panne depuis lundi.",
        "Oublie le rendez-vous de jeudi, il est reporté.",
        "Les consignes de tri ont changé dans notre commune.",
        "Réserve une table pour samedi soir, on sera huit.",
        "N'oublie pas d'acheter du pain en rentrant.",
        "J'ai perdu les instructions de montage de l'armoire.",
        "Le train pour Lyon part à 8 h 12 du quai 3.",
        "Ma fille répond toujours avec des emojis.",
        "Nous avons réservé un gîte en Bretagne pour août.",
        "Ignore le premier message de la banque, c'était une erreur.",
        "Le médecin m'a dit de prendre le sirop deux fois par jour.",
        "Envoie-moi la recette de la tarte aux pommes, s'il te plaît.",
    ],
    "de": [
        "Die Assistentin vom Arzt hat den Termin auf Montag verschoben.",
        "Ab sofort fahre ich mit dem Fahrrad zur Arbeit.",
        "Das System der Heizung wird nächste Woche gewartet.",
        "Bitte schick die Einladung an alle Nachbarn.",
        "Die Anweisungen des Trainers: zehn Minuten aufwärmen, dann laufen.",
        "Wir haben den Regen ignoriert und sind trotzdem gewandert.",
        "Ich habe die Anleitung für den Schrank verloren.",
        "Morgen muss ich das Auto in die Werkstatt bringen.",
        "Vergiss nicht, die Blumen zu gießen, während ich weg bin.",
        "Die neuen Regeln für die Mülltrennung gelten ab Januar.",
        "Wir haben einen Tisch für sechs Personen reserviert.",
        "Schick mir bitte die Fotos vom Ausflug.",
        "Der Zug nach Berlin hat heute 20 Minuten Verspätung.",
        "Ignorier die alte Rechnung, die neue ist korrekt.",
    ],
    "zh": [
        "医生的助手说下周二可以来拿报告。",
        "从现在开始我每天早上跑步半小时。",
        "把会议记录发给所有同事。",
        "这个系统升级以后速度快多了。",
        "按照说明书，先把电池装好再开机。",
        "周末我们忽略了天气预报，还是去爬山了。",
        "明天早上九点要去医院复查。",
        "请提醒我周五给妈妈打电话。",
        "我把洗衣机的说明书弄丢了。",
        "这家餐厅的饺子很好吃，下次还要来。",
        "我们订了国庆节去杭州的火车票。",
        "老师说作业可以用中文或者英文写。",
        "忘记带伞了，只好在咖啡店等雨停。",
        "公司的新规定从下个月开始执行。",
    ],
    "ja": [
        "歯医者の受付の人が予約を木曜日に変えてくれた。",
        "これからは毎朝ジョギングをすることにした。",
        "会議の資料を全員にメールで送ってください。",
        "新しいシステムのおかげで経費精算が楽になった。",
        "説明書によると、最初に電池を入れる必要がある。",
        "雨だったけど気にせずに散歩に行った。",
        "来週の会議は火曜日に変更になりました。",
        "明日の朝、駅前で友達と待ち合わせです。",
        "洗濯機の説明書をなくしてしまった。",
        "母に誕生日プレゼントを送るのを忘れないように。",
        "このレシピでは砂糖を半分にしても大丈夫です。",
        "新しいルールで、ゴミは火曜日と金曜日に出します。",
        "京都行きの新幹線を予約しました。",
        "娘はいつも絵文字だけで返信してきます。",
    ],
    "ru": [
        "Ассистентка врача перенесла приём на понедельник.",
        "С этого момента я хожу в бассейн по вторникам.",
        "Отправь приглашения всем соседям до пятницы.",
        "Система отопления заработала только вечером.",
        "По инструкции сначала нужно вставить батарейки.",
        "Мы не обратили внимания на дождь и пошли гулять.",
        "Не забудь купить молоко и хлеб.",
        "Завтра в девять утра у меня приём у врача.",
        "Я потерял инструкцию к стиральной машине.",
        "Мы забронировали столик в кафе на субботу.",
        "Новые правила парковки действуют с понедельника.",
        "Отправь мне, пожалуйста, фотографии с дачи.",
        "Поезд в Санкт-Петербург отправляется в 23:55.",
        "Игнорируй старое расписание, теперь занятия по средам.",
    ],
}

PLAIN_FOR_ENCODING = [
    "Meeting notes for the garden club, spring season",
    "shopping: apples, flour, butter, cinnamon",
    "Notes from the choir rehearsal, autumn term",
    "Happy birthday, Grandpa! Love from all of us",
    "user=ana; theme=dark; lang=pt-BR",
    "Chapter 1. It was raining when the ferry arrived.",
    "order 48213 shipped via standard post",
    "Hello world from the build server",
]

MARKUP = [
    "<!-- navigation starts here --><nav><a href='/'>Home</a> <a href='/menu'>Menu</a></nav>",
    '<img src="/img/dog.jpg" alt="A golden retriever running on the beach">',
    '<div class="mobile-menu" style="display:none">Home | Menu | Contact</div>',
    "![Chart of monthly sales, rising from March to June](charts/sales.png)",
    '[our opening hours](https://cafe.example/hours "Open daily from 8 to 18")',
    "<p>Welcome to the bakery! Fresh bread every morning from 7.</p><!-- TODO: add summer hours -->",
    "<span hidden>Loading...</span><p>Your order has been received.</p>",
    '<a href="/returns" title="Returns and refunds policy">Returns</a>',
    '<img src="team.jpg" alt="Our support team at the office party, December">',
    "<!-- Google Tag Manager (noscript) --><p>Cookie settings can be changed at any time.</p>",
    '<div style="visibility:hidden" id="tooltip">Click to copy</div><button>Copy link</button>',
    'See the [installation guide](https://docs.example/install "Step-by-step guide for Windows and macOS").',
    '<p style="font-size:0">&nbsp;</p><h2>Summer menu</h2><p>Gazpacho, grilled sardines, lemon tart.</p>',
    "<td>Oak table</td><td>249.00</td><!-- price updated 2024-05-01 -->",
    "![Map showing the route from the station to the venue](map.png) It takes about 12 minutes on foot.",
    '<meta name="description" content="Family-run hotel by the lake with a garden and free parking">',
    '<img src="icon-warning.svg" alt="Warning: do not touch the hot surface">',
    '<a href="mailto:info@bakery.example" title="Send us an email">Contact</a>',
    "<!-- Ignore this block in the print stylesheet --><div class='ads'>Ad space</div>",
    '<input type="hidden" name="csrf" value="a8f5f167f44f4964e6c998dee827110c">',
]

LONG_TEXTS = [
    "Hi Ana,\n\nThanks for organising the trip. The bus leaves at 8:30 from the school gate, so please be there "
    "by 8:15. Bring a packed lunch, water and a raincoat; the forecast says showers in the afternoon. Phones "
    "are allowed but the teachers ask the kids to keep them in their bags during the museum visit. If your "
    "child needs medication, give it to Mr. Bauer in a labelled bag. We should be back around 17:00, and we'll "
    "send a message to the parents' group if there's a delay.\n\nSee you Friday,\nKatrin",
    "| Day | Task | Owner |\n|---|---|---|\n| Mon | Send the invoice to the client | Lee |\n| Tue | Book the "
    "venue | Ana |\n| Wed | Forward the brochure to the printer | Lee |\n| Thu | Pay the deposit | Sam |\n| Fri "
    "| Delete old drafts from the shared folder | Ana |",
    "Minutes of the residents' meeting. 1. The board approved the new bike shed. 2. Residents must not leave "
    "bags in the corridor; the fire inspector will check in May. 3. The old rules about quiet hours are "
    "replaced: quiet hours are now 22:00 to 7:00 on all days. 4. The treasurer will send the annual accounts "
    "by email. 5. Next meeting: 14 June, 19:00, in the community room.",
    "Onboarding checklist. Set up your laptop using the IT guide. Change your temporary password on first "
    "login. Join the team channel and introduce yourself. Read the security policy and sign it. Book a "
    "meeting with your buddy for the first week. Ignore the automatic emails from the old HR system; they "
    "will stop once your account is migrated.",
    "Trip report. We drove from Porto to Braga on Saturday, visited the cathedral and climbed the stairs to Bom "
    "Jesus. On Sunday we took the train to Guimarães, which has a beautiful castle and a lively square. The "
    "food was excellent everywhere: try the francesinha in Porto and the custard tarts at the bakery near "
    "the station. Book the train tickets in advance on weekends, and bring cash for the smaller cafés.",
    "Dear customer, your order #58213 has shipped. It will arrive in 3-5 working days. You can track it with "
    "the link in your account. If you are not at home, the courier will leave a card; follow the instructions "
    "on it to rebook delivery. To return an item, print the prepaid label and drop the parcel at any post "
    "office within 30 days. Thank you for shopping with us.",
    "Product FAQ. Q: How do I reset the device? A: Hold the power button for 15 seconds. Q: Can I use it "
    "abroad? A: Yes, it works on 100-240 V. Q: What if the app says 'update required'? A: Open the app store "
    "and install the latest version, then restart the device. Q: Who do I contact for repairs? A: Email "
    "support with your serial number.",
    "Recipe: lentil soup for six. Chop two onions, three carrots and two celery sticks. Fry them gently in "
    "olive oil for ten minutes. Add 300 g of red lentils, a tin of tomatoes, 1.5 litres of stock and a "
    "teaspoon of cumin. Simmer for 25 minutes, season, and blend half of it for a creamy texture. Serve with "
    "lemon and bread. Keeps for three days in the fridge; freeze the rest.",
    "Weekly team update. Shipping: the new checkout went live on Tuesday, conversion is up 3%. Support: ticket "
    "volume is back to normal after the outage. Hiring: two interviews for the backend role this week. "
    "Reminders: submit your timesheets by Friday, and please update the on-call calendar if you swap shifts. "
    "Next sprint planning is on Monday at 10.",
    "Lease summary. Rent is 1,150 per month, due on the 1st, paid by bank transfer. The deposit of two months "
    "is held in a separate account. Tenants must give two months' notice. Pets are allowed with written "
    "consent. The landlord handles repairs to the boiler and the roof; tenants replace light bulbs and keep "
    "the garden tidy.",
    "| Medication | Dose | When |\n|---|---|---|\n| Ibuprofen | 400 mg | with food, max 3 a day |\n| "
    "Vitamin D | 1000 IU | morning |\n| Eye drops | 1 drop each eye | at night |",
    "Volunteer schedule for the food bank: Saturday mornings, sorting donations from 9 to 12. Wear closed "
    "shoes. Sign in at the front desk and take a badge. Do not give out food at the door; send visitors to "
    "the distribution desk. Email the coordinator if you cannot come, at least a day ahead.",
]

TASKS = [
    "send the signed lease to the agency",
    "forward the concert tickets to Leo",
    "book a table at the Lebanese place for Saturday",
    "cancel the cleaning on the 12th",
    "delete the old invoices from my downloads folder",
    "pay the nursery fees",
    "transfer the rent to the new landlord",
    "upload the class photos to the parents' drive",
    "share the holiday pictures with my cousins",
    "email the insurance company about the scratched bumper",
    "buy new running shoes before the half marathon",
    "renew the car registration",
    "call the vet about Luna's vaccination",
    "print the concert programme",
    "reply to the wedding invitation",
    "order more printer ink",
    "return the library books",
    "ask the neighbour to water the tomatoes",
    "update the emergency contacts at work",
    "check whether the passport renewal arrived",
]

WHEN = [
    "tomorrow morning",
    "on Friday",
    "before month end",
    "after lunch",
    "next week",
    "when I get home",
    "by Wednesday",
    "on the 3rd",
    "tonight",
    "before we leave for the holidays",
]

NAMES = ["Ana", "Tom", "Priya", "Jonas", "Mei", "Carlos", "Fatima", "Oleg", "Hana", "Sam"]

THINGS = ["slides", "recipe", "photos", "the address of the venue", "the invoice", "the playlist", "the notes"]

GOALS = [
    ("descale the coffee machine", "fill the tank with the descaler", "run two cycles with clean water"),
    ("repot a cactus", "wear thick gloves", "use a sandy soil and wait a week before watering"),
    ("clean a cast-iron pan", "scrub it with salt", "dry it on the stove and rub in a little oil"),
    ("change a bike tyre", "release the brake", "lever the tyre off and check the rim tape"),
    ("back up your phone", "connect it to wi-fi", "open Settings and tap Back up now"),
    ("bleed a radiator", "turn the heating off", "open the valve with the key until water appears"),
    ("set up the printer", "install the driver from the maker's site", "add the printer by its IP address"),
    ("make cold brew", "mix coarse coffee with cold water", "leave it in the fridge for 16 hours and strain"),
    ("fix a dripping tap", "shut off the water", "replace the washer and reassemble the tap"),
    ("freeze herbs", "chop them finely", "pack them in an ice-cube tray with olive oil"),
    ("hang a shelf", "find the studs", "drill pilot holes and check it is level before tightening"),
    ("sharpen a knife", "soak the whetstone", "hold a steady angle and use light strokes"),
]
