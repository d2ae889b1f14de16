"""Passwords that command lines, code and login pairs give are refused; a variable, a prompt, a port or a type in
their place is stored."""

from __future__ import annotations

import pytest

from tiermem.trust.secrets import find_secrets


@pytest.mark.parametrize(
    "text",
    [
        "redis-cli -a Hx7pQ2vLm9 ping",
        "redis-cli -h cache.internal -p 6380 -a 'Pa55word!' info",
        "ldapsearch -x -D cn=admin,dc=corp -w Ldap2024pw -b dc=corp",
        "ldapmodify -H ldap://dir -D cn=root -w 'Slate#771' -f add.ldif",
        "echo Sud0Pass! | sudo -S apt-get update",
        "echo 'Tern!8842' | sudo -k -S systemctl restart nginx",
        "mysql -u root -pHarbor92x",
        "mysqldump -u backup -pKelp4471 shop > shop.sql",
        "sshpass -p Ocean4413 ssh deploy@host",
        "PGPASSWORD=Pelican77 psql -h db -U app",
        "MYSQL_PWD=Harbor92x mysql -u app",
        "smbclient //files/share -U ann%Harbor92x",
        "echo hunter | sudo -S whoami",
    ],
)
def test_a_password_in_a_command_line_flag_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        'redis-cli -a "$REDIS_PASSWORD" ping',
        "redis-cli -a $REDISCLI_AUTH info",
        "mysql -u root -p",
        "mysql -u root -p shop < dump.sql",
        "ssh -p 22 admin@bastion",
        "psql -p 5432 -h db -U app",
        "ldapsearch -x -W -D cn=admin -b dc=corp",
        'echo "$SUDO_PASS" | sudo -S true',
        "echo done | tee -a build.log",
        "smbclient //files/share -U ann",
        "HOME_PATH=/usr/local/bin OLDPWD=/home/ann",
    ],
)
def test_a_command_line_without_a_literal_password_is_stored(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "login is admin / Fjord#5512",
        "the login is root / quartz88",
        "Login: ops / Tangerine!4",
        "router login: admin/Lichen-204",
        "pw Lumen4471x",
        "PW Saffron#9 for the shared drive",
        "password field: Walnut#33",
    ],
)
def test_a_user_and_password_pair_or_a_bare_pw_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "the login is admin / user",
        "login is via SSO",
        "login: example.org/Account2024",
        "login / logout buttons",
        "pw reset link sent",
        "pw change due on Friday",
        "password field: required",
    ],
)
def test_a_login_or_pw_without_a_password_is_stored(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        'String password = "Hemlock#44";',
        'private static final String DB_PASSWORD = "Cobalt-2291x";',
        'const string DbPassword = "Quince7742";',
        'val password = "Marigold!8"',
        'props.put("password", "Hemlock#44");',
        'props.setProperty("mail.smtp.password", "Lark#2290");',
        'conn.setPassword("Hemlock#44");',
        'DataSource.builder().password("Otter!5512").build()',
        "${DB_PASSWORD:-s3cr3tValue}",
        "${DB_PASSWORD:s3cr3t}",
        "spring.datasource.password=${DB_PASSWORD:Teal8812}",
        "password: ${DB_PASSWORD:-Fennel551}",
        '@Value("${db.password:Teal8812}")',
    ],
)
def test_a_password_literal_in_code_or_a_default_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "${DB_PASSWORD}",
        "password: ${DB_PASSWORD}",
        "password: ${DB_PASSWORD:-}",
        "spring.datasource.password=${DB_PASSWORD:?set it}",
        "password=${DB_PASSWORD:-${VAULT_PASSWORD}}",
        "<password>",
        'conn.setPassword(System.getenv("DB_PASSWORD"));',
        'props.put("password", password);',
    ],
)
def test_a_password_from_a_variable_or_a_slot_is_stored(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "password: SecretStr = Field(...)",
        "password: str",
        "password: Optional[str] = None",
        'password: SecretStr = Field(default=..., description="The account password")',
        "    password: SecretStr",
        "db_password: str | None = None",
    ],
)
def test_a_type_annotation_after_a_password_label_is_stored(text: str) -> None:
    assert find_secrets(text) == ()


def test_a_default_after_a_type_annotation_is_still_a_password() -> None:
    assert find_secrets('password: SecretStr = Field(default="Tr0ub4dor&3")') == ("a password",)
