"""The development PII cases (``pii.jsonl``), written by ``make_dev.py``."""

from __future__ import annotations

import string

from casegen import Cases, Gen, spaced


def pii() -> list[dict[str, str]]:
    g = Gen("dev-pii")
    cases = Cases()
    hit, near = cases.pii, cases.near_pii

    for value, text in [
        ("ann.lee@example.com", "Mail ann.lee@example.com about the invoice."),
        ("Ops-Desk@Example.Co.UK", "Escalate to Ops-Desk@Example.Co.UK"),
        ("bob_99+news@mail.example.org", "<bob_99+news@mail.example.org>"),
        ("x@y.io", "short one: x@y.io."),
    ]:
        hit("email", value, text)
    phones = [
        ("US", "415-555-0132", "Call me at 415-555-0132 tomorrow."),
        ("US", "(212) 555-0147", "Office (212) 555-0147, ask for Dana."),
        ("US", "+1 (646) 555-0199", "My cell +1 (646) 555-0199"),
        ("US", "650.555.0110", "phone: 650.555.0110"),
        ("GB", "020 7946 0958", "London office 020 7946 0958."),
        ("GB", "07911 123456", "Mobile 07911 123456"),
        ("GB", "+44 20 7946 0321", "Reach us on +44 20 7946 0321"),
        ("GB", "+44 (0)161 496 0000", "Tel +44 (0)161 496 0000"),
        ("DE", "030 12345678", "Ruf mich an: 030 12345678"),
        ("DE", "0171 2345678", "Meine Handynummer ist 0171 2345678."),
        ("DE", "+49 30 901820", "Zentrale +49 30 901820"),
        ("DE", "0049 89 1234567", "aus dem Ausland 0049 89 1234567"),
        ("FR", "01 42 68 53 00", "Appelez le 01 42 68 53 00."),
        ("FR", "07 81 23 45 67", "portable 07 81 23 45 67"),
        ("FR", "+33 6 12 34 56 78", "WhatsApp +33 6 12 34 56 78"),
        ("FR", "0033 1 23 45 67 89", "depuis l'étranger 0033 1 23 45 67 89"),
        ("IN", "098765 43210", "My number is 098765 43210"),
        ("IN", "+91 98765 43210", "call +91 98765 43210"),
        ("IN", "022 2345 6789", "Mumbai office 022 2345 6789"),
        ("IN", "+91-11-2345-6789", "Delhi +91-11-2345-6789"),
        ("BR", "(21) 99876-5432", "Zap: (21) 99876-5432"),
        ("BR", "+55 11 91234-5678", "celular +55 11 91234-5678"),
        ("BR", "11 3456-7890", "telefone fixo 11 3456-7890"),
        ("JP", "090-1234-5678", "携帯 090-1234-5678"),
        ("JP", "06-6123-4567", "大阪支店 06-6123-4567"),
        ("JP", "+81 3-1234-5678", "Tokyo +81 3-1234-5678"),
        ("AU", "0491 570 156", "mob 0491 570 156"),
        ("AU", "+61 2 9876 5432", "Sydney +61 2 9876 5432"),
        ("AU", "(03) 9123 4567", "Melbourne (03) 9123 4567"),
        ("ES", "91 123 45 67", "Llámame al 91 123 45 67"),
        ("ES", "+34 612 345 678", "móvil +34 612 345 678"),
        ("ES", "655 123 456", "teléfono 655 123 456"),
        ("IT", "02 1234 5678", "Milano 02 1234 5678"),
        ("IT", "+39 347 123 4567", "cell. +39 347 123 4567"),
        ("IT", "347 765 4321", "chiamami al 347 765 4321"),
        ("MX", "+52 55 1234 5678", "CDMX +52 55 1234 5678"),
        ("MX", "81 1234 5678", "Monterrey 81 1234 5678"),
        ("NL", "020 123 4567", "bel 020 123 4567"),
        ("NL", "+31 6 12345678", "mobiel +31 6 12345678"),
        ("CA", "(416) 555-0123", "Toronto (416) 555-0123"),
        ("IE", "+353 1 234 5678", "Dublin +353 1 234 5678"),
        ("CH", "044 668 18 00", "Zürich 044 668 18 00"),
        ("SE", "070-123 45 67", "ring 070-123 45 67"),
        ("PL", "+48 512 345 678", "kom. +48 512 345 678"),
        ("ZA", "082 123 4567", "cell 082 123 4567"),
    ]
    for region, value, text in phones:
        hit("phone", value, text, region)
    ib = [
        g.iban("DE", "50010517" + g.s(string.digits, 10)),
        g.iban("GB", "BARC" + g.s(string.digits, 14)),
        g.iban("ES", g.s(string.digits, 20)),
        g.iban("IT", "X0542811101000000123456"),
        g.iban("BE", g.s(string.digits, 12)),
        g.iban("CH", g.s(string.digits, 17)),
    ]
    hit("iban", spaced(ib[0]), f"IBAN {spaced(ib[0])}")
    hit("iban", ib[1], f"pay {ib[1]} today")
    hit("iban", ib[2].lower(), f"mi cuenta {ib[2].lower()}")
    hit("iban", spaced(ib[3]).lower(), f"iban: {spaced(ib[3]).lower()}")
    hit("iban", spaced(ib[4]), f"rekening {spaced(ib[4])}")
    hit("iban", ib[5][:2].lower() + ib[5][2:], f"Konto {ib[5][:2].lower() + ib[5][2:]}")
    cards = [
        g.card("4", 16),
        g.card("55", 16),
        g.card("34", 15),
        g.card("6011", 16),
        g.card("3530", 16),
        g.card("36", 14),
        g.card("2720", 16),
        g.card("4", 19),
    ]
    hit("card", spaced(cards[0]), f"visa {spaced(cards[0])}")
    hit(
        "card",
        "-".join(cards[1][i : i + 4] for i in range(0, 16, 4)),
        "MC " + "-".join(cards[1][i : i + 4] for i in range(0, 16, 4)),
    )
    hit("card", cards[2], f"amex {cards[2]} exp 11/27")
    hit("card", cards[3], f"{cards[3]}")
    hit("card", spaced(cards[4]), f"JCB {spaced(cards[4])}")
    hit(
        "card",
        f"{cards[5][:4]} {cards[5][4:10]} {cards[5][10:]}",
        f"Diners {cards[5][:4]} {cards[5][4:10]} {cards[5][10:]}",
    )
    hit("card", spaced(cards[6]), f"card {spaced(cards[6])}")
    hit("card", cards[7], f"long visa {cards[7]}")
    hit("ssn", "123-45-6789", "SSN 123-45-6789")
    hit("ssn", "536-90-4312", "my social is 536-90-4312")
    hit("ssn", "601234567", "SSN: 601234567")
    hit("ssn", "457 22 1093", "ssn 457 22 1093")
    hit("ip", "192.168.1.20", "router at 192.168.1.20")
    hit("ip", "8.8.8.8", "DNS 8.8.8.8")
    hit("ip", "172.16.254.1:8080", "proxy 172.16.254.1:8080")
    hit("ip", "2001:db8::8a2e:370:7334", "v6 2001:db8::8a2e:370:7334")
    hit("ip", "::1", "loopback ::1 only")
    hit("ip", "2a00:1450:4001:82a::200e", "resolved to 2a00:1450:4001:82a::200e")
    hit("nino", "AB 12 34 56 C", "NI AB 12 34 56 C")
    hit("nino", "JG103759A", "NINO JG103759A")
    hit("nino", "ce 45 67 89 d", "my ni number is ce 45 67 89 d")
    hit("birth_date", "1985-03-14", "date of birth: 1985-03-14")
    hit("birth_date", "03/14/1985", "DOB 03/14/1985")
    hit("birth_date", "14 March 1985", "born 14 March 1985")
    hit("birth_date", "12.07.1979", "Geburtsdatum: 12.07.1979")
    hit("passport", "L898902C3", "passport no. L898902C3")
    hit("passport", "123456789", "US passport 123456789")
    hit("national_id", "12345678Z", "DNI 12345678Z")
    hit("national_id", "RSSMRA85T10A562S", "codice fiscale RSSMRA85T10A562S")
    hit("national_id", "ABCPE1234F", "PAN ABCPE1234F")
    hit("national_id", "111.444.777-35", "CPF 111.444.777-35")

    near("version", "Upgrade from v2.10.3 to version 1.2.3.4.")
    near("version", "firmware 4.12.0.1 on the router")
    near("version", "Chrome 124.0.6367.91 is out.")
    near("version", "kernel 6.8.0-45-generic")
    near("version", "Python 3.11.9, numpy 2.1.3")
    near("barcode", "EAN-13: 4006381333931")
    near("barcode", "UPC-A 012345678905")
    near("barcode", "scan 9780201379624")
    near("order", "Order #A-10293 and order 20260501-4471")
    near("order", "ticket 4471923 is closed")
    near("order", "Amazon order 302-1234567-7654321")
    near("order", "reference 00123456789")
    near("order", "PO 4500012345 approved")
    near("order", "case number 0123456789")
    near("tracking", "parcel 1Z999AA10123456784")
    near("date", "Meet on 12/05/2026 or 2026/05/12.")
    near("date", "born in 1985, moved in 2001")
    near("date", "20260501 snapshot")
    near("time", "Call at 9:30 or 14:00.")
    near("time", "timestamp 2026-05-01T10:30:45Z")
    near("price", "The invoice total is $1,234.56.")
    near("price", "£12,499.00 or 1.299,00 €")
    near("number", "budget 1,000,000 EUR; pi is 3.14159")
    near("number", "ratio 16:9, a::b in C++")
    near("number", "192.168.1 is not an address")
    near("range", "tables 1-20, years 1999-2024")
    near("isbn", "ISBN 978-3-16-148410-0")
    near("phone_like", "room 101, floor -2, score 98.6%")
    near("phone_like", "Population 8 336 817 in 2020")
    near("phone_like", "serial number SN 2041 7788 1290")
    near("hex", "mac address? no, checksum 0x1F2E3D4C")
    return cases.rows
