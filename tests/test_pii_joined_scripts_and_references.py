"""An e-mail address or an IP address joined to Japanese or Chinese text is masked, as is a birth date after "geb.
am"; a serial number, a law's number and a numbered section of a document stay as written."""

from __future__ import annotations

import pytest

from tiermem.trust.pii import PiiMasker


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("連絡先はmika.sato@example.co.jpまでお願いします。", "mika.sato@example.co.jp"),
        ("ゲートウェイは203.0.113.45です。", "203.0.113.45"),
        ("服务器地址是198.51.100.7。", "198.51.100.7"),
        ("Herr Brandt, geb. am 17.09.1983, wohnt in Kiel", "17.09.1983"),
    ],
)
def test_a_value_joined_to_cjk_text_or_after_geb_am_is_masked(text: str, value: str) -> None:
    assert value not in PiiMasker().mask(text)


@pytest.mark.parametrize(
    "text",
    [
        "Numero di serie del frigorifero: 40871236590",
        "Número de serie: 55012398744",
        "Read section 4.2.1.3 before changing the timeout.",
        "See Abschnitt 3.1.4.2 for details.",
        "Directive (EU) 2019/790 sets the rules for text mining.",
        "Regulation 2018/1725 applies to the agencies.",
    ],
)
def test_a_serial_a_law_or_a_document_section_stays(text: str) -> None:
    assert PiiMasker().mask(text) == text
