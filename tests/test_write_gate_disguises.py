"""The write gate reads each field as a reader would: disguised credentials are refused, and no refusal keeps one."""

# ruff: noqa: RUF001  (the cases are written in the scripts they test)

from __future__ import annotations

from pathlib import Path

import pytest

from tiermem import Memory, Scope
from tiermem.errors import SecretRefusedError
from tiermem.trust.secrets import find_secrets

ANN = Scope("acme", "ann")
KEY = "AKIAZ3MPLQ7TR4XW9BNC"  # the shape of an AWS access key id, made up


def _wide(text: str) -> str:
    """``text`` in full-width forms, as some input methods type it."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


DISGUISED = {
    "full width": f"the deploy key is {_wide(KEY)}",
    "full-width prefix": f"deploy key {_wide(KEY[:4])}{KEY[4:]}",
    "zero-width spaces between letters": "\u200b".join(KEY),
    "a soft hyphen inside": f"{KEY[:8]}\u00ad{KEY[8:]}",
    "a Cyrillic first letter": f"\u0410{KEY[1:]}",
    "a label with a hidden character": "pass\u200bword: Lantern-Otter-73",
    "a label with a Cyrillic o": "passw\u043erd: Lantern-Otter-73",
    "a label spaced apart": "p a s s w o r d: Lantern-Otter-73",
    "a full-width sentence": _wide("the password for the shed lock is Lantern-Otter-73"),
    "a full-width colon in a connection string": "postgresql\uff1a//app:Lantern-Otter-73@db.example/app",
    "Mongolian selectors between letters": "\u180b".join(KEY),
    "a Hangul filler inside": f"{KEY[:8]}\u3164{KEY[8:]}",
    "a low line under every letter": "".join(c + "\u0332" for c in KEY),
    "look-alikes only, in a Russian sentence": "Ключ: \u0410\u041a\u0406\u0410Z3\u041cPLQ7\u0422R4XW9\u0412N\u0421",
    "a Russian label": "Пароль от почты: Lantern-Otter-73",
    "a French label": "le mot de passe est Lantern-Otter-73",
    "an Italian label": "la password è Lantern-Otter-73",
    "a Chinese label": "邮箱密码是Lantern73Otter",
    "a Japanese label": "パスワードは Lantern73Otter",
    "an arrow after the label": "password → Lantern-Otter-73",
}


@pytest.mark.parametrize("case", sorted(DISGUISED))
def test_a_disguised_credential_is_refused(tmp_path: Path, case: str) -> None:
    with Memory.open(tmp_path / "m.db", embedder="hash") as mem:
        with pytest.raises(SecretRefusedError):
            mem.remember(ANN, DISGUISED[case])
        assert mem.list(ANN).records == ()


@pytest.mark.parametrize(
    "text",
    [
        "Café au lait with a croissant, then the naïve résumé workshop at ten.",
        _wide("The meeting is at noon"),  # full-width prose, no credential in it
        "We walked the Via Appia — about 12\u00a0km — and ate at a trattoria.",
        "p a s s the salt, please",
        "Пароль нужно менять каждые три месяца.",
        "Le mot de passe est sur le frigo.",
        "La password è scaduta ieri.",
        "密码是什么？",
        "Москва2024 была прекрасна",
        "Das Passwort ist abgelaufen.",
        "Wachtwoord: minimaal acht tekens",
        "Hasło: Razem możemy więcej",
        "Parola chiave: ottimizzazione",
        "Account -> Password -> Reset",
        "パスワードは8文字以上です",
        "비밀번호는 필수입니다",
    ],
)
def test_prose_in_other_forms_is_not_a_credential(text: str) -> None:
    assert find_secrets(text) == ()


def test_credentials_are_refused_in_agent_and_session_ids(tmp_path: Path) -> None:
    with Memory.open(tmp_path / "m.db", embedder="hash") as mem:
        with pytest.raises(SecretRefusedError, match="agent"):
            mem.remember(Scope("acme", "ann", agent=KEY), "We talked about lunch.")
        with pytest.raises(SecretRefusedError, match="session"):
            mem.remember_messages(ANN, [{"role": "user", "content": "hello"}], session=KEY)
        assert mem.list(ANN).records == ()


def test_a_refusal_audits_no_credential_held_by_a_source_or_a_metadata_key(tmp_path: Path) -> None:
    source = f"web:https://x.example/?token={KEY}"
    with Memory.open(tmp_path / "m.db", embedder="hash") as mem:
        with pytest.raises(SecretRefusedError) as refused:
            mem.remember(ANN, "Lunch is at one.", metadata={KEY: "yes"})
        assert KEY not in str(refused.value)
        with pytest.raises(SecretRefusedError):
            mem.remember(ANN, "Lunch is at one.", source=source)
        entries = mem.audit(ANN)
        assert [e.op for e in entries] == ["refuse", "refuse"]
        assert all(KEY not in f"{e.actor} {e.detail}" for e in entries), entries
        assert entries[1].actor.startswith("web:")
        export = mem.export(ANN)
    with Memory.open(tmp_path / "copy.db", embedder="hash") as copy:
        copy.restore(export, vouched=True)  # the user's own export restores: it holds no credential
