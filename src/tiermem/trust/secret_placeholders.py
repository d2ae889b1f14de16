"""(internal) Values that stand for a credential instead of being one: placeholders, templates and code.

A value after a password's label is often no password: a form's placeholder (``<your password>``, ``changeme``),
a template's slot (``${TOKEN}``, ``%(password)s``, ``#{password}``), a masked value (``********``, ``•••••``), a
YAML tag (``!!null``, ``!secret db_password``) or code that reads the password from somewhere (``os.getenv(...)``,
``config['db']['password']``, ``Hash::make($request->password)``, ``@password``). A value that merely begins like
one is a value still: ``$ecretSauce99`` and ``%sunset%42`` are what a person types, no variable or slot, and a
slot's default (``${DB_PASSWORD:-...}``) is the value used when nothing fills the slot.
"""

from __future__ import annotations

import re

from tiermem.trust.secret_labels import names_a_variable

__all__ = ["is_placeholder"]

# Words that stand for a value in documentation and forms: a value made only of these is not a credential.
_PLACEHOLDER_WORDS = frozenset(
    "your my the a an our their his her this that some any new old example sample dummy fake placeholder "
    "secret password passwd pwd pw pass passphrase word token key keys api access id user username login value "
    "here insert enter replace me put paste goes changeme change it redacted hidden removed masked none null "
    "nil empty blank na n tbd todo xxx foo bar baz test string str text auth client app private public goes "
    "required optional unchanged same see below above default demo abc wrong incorrect invalid bad bogus "
    "true false sensitive".split()
)
# The same words in other languages a template is written in: "HIER_EINTRAGEN", "votre_mot_de_passe", "TU_CLAVE".
_PLACEHOLDER_WORDS |= frozenset(
    "hier eintragen einfuegen einfügen ersetzen aendern ändern dein deine ihr ihre passwort kennwort geheimnis "
    "wachtwoord invullen vul in hier invoeren aanpassen wijzigen vervangen plakken uw je jouw "
    "fyll i här har ange ditt din byt ut ersätt ersatt lösenord losenord täytä tayta tähän tahan salasana "
    "votre ton ta mot de passe ici entrer saisir remplacer modifier "
    "tu su tus aqui aquí introducir poner cambiar reemplazar contrasena contraseña clave "
    "sua seu aqui inserir colocar substituir senha "
    "tuo tua qui inserire sostituire mettere "
    "bitte ausfuellen ausfüllen eintragen remplir rellenar completar compilare".split()
)
# A value that says it is no real one ("not-the-right-one", "fixture-password-not-real"): only these words and the
# words above, as a test or a fixture names the value it posts.
_PLACEHOLDER_WORDS |= frozenset("not real right one actual valid fixture fixtures mock stub for tests testing".split())
# A slot written as an instruction ("replace-me-with-a-long-random-string", "change_me_before_deploy",
# "your-webhook-signing-secret-here"): letters in words, opening on what to do or on "your" and closing on "here".
_INSTRUCTION = re.compile(
    r"(?i)^(?:(?:replace|change|fill|set|update)[-_ ]?me(?:[-_ ][a-z]+)*|(?:your|my)(?:[-_ ][a-z]+)+[-_ ]here"
    r"|(?:insert|enter|put|paste|add|set)[-_ ](?:your|the|a)(?:[-_ ][a-z]+)+)$"
)
# Where a secret lives, named instead of the secret: an environment variable (``env:PGPASSWORD``) or a store's path.
# A file named after "@" is read for the value, as curl and vault read one (``password=@db_password.txt``), and a
# store's path names the field it reads after "#" (``secret/data/app#password``).
_REFERENCE = re.compile(
    r"^(?:env|environ|environment):[A-Z_][A-Z0-9_]*$|^(?:vault|ssm|keychain|keyring|op)://\S+$"
    r"|^[A-Za-z_][\w.\-]*(?:/[\w.\-]+)+#[A-Za-z_]\w*$"
    r"|^@[\w~.-]*[./][\w./-]*\w$"
)
# A slot a template fills (``<...>``, ``{...}``, ``${...}``, ``$(...)``, ``#{...}``, ``%s``, ``%(name)s``,
# ``%NAME%``, ``$1``), a mask (``****``, ``•••``, ``xxxx``), or a hash in modular crypt form (``$2b$12$...``,
# ``$argon2id$...``), which is what a store keeps instead of the password.
_TEMPLATE = re.compile(
    r"^(?:<.*|\{.*|\$[{(].*|\$\d+|#\{.*|%[sd]|%\(\w+\)[sd]|%\w+%|\[.*|\.{2,}|…|\*+|[•●·∙]+|#+|x+|X+|-+|_+|\?+|0+"
    r"|\$(?:2[abxy]?|1|5|6|7|y|gy|apr1|md5|sha\d*|argon2(?:id|i|d)|scrypt|pbkdf2[\w-]*)\$.*)$"
)
# A slot a secret store fills when the config is read, the store named before its colon: Spring Cloud Vault's
# ``${vault:secret/app#password}``, ``${ssm:/prod/db}``, ``${awssecrets:...}``; what follows the colon is a path.
_STORES = (
    r"(?:vault|ssm|awssm|awssecrets|aws-?secrets(?:manager)?|secretsmanager|sm|azure-?key-?vault|keyvault|akv"
    r"|gcp-?secret(?:manager)?|gsm|op|1password|doppler|infisical|conjur|cyberark)"
)
_STORE_SLOT = re.compile(r"(?i)^\$\{" + _STORES + r":[^{}\s]+\}$")
# The same reference written bare, as a config names where a value is read from (``vault:secret/data/app#password``):
# a store, a path of at least two parts and the field it reads.
_STORE_PATH = re.compile(r"(?i)^" + _STORES + r":/*[\w.\-]+(?:/[\w.\-]+)+(?:#[A-Za-z_][\w.\-]*)?$")
_CODE_REFERENCE = re.compile(
    # a member or a call on a name, also in PHP and C++ (``Hash::make(``, ``$request->password``)
    r"^(?:[A-Za-z_]\w*(?:\.|::|->))+[A-Za-z_]\w*[(\[]|^(?:process\.env|os\.environ|ENV\[|getenv)"
    # a call on a name or on a query's placeholder: ``Column(String, ...)``, ``crypt($1, ...)``, ``sha2(?, 256)``
    r"|^[A-Za-z_]\w{2,}\((?:[A-Za-z_\\\"')$?:@%]|$)"
    # an item of a mapping or an array: ``config['db']``, ``secrets[``, ``args[1]``, Ruby's ``params[:password]``
    r"|^[A-Za-z_]\w*\[(?:$|\d+\]|:?[A-Za-z_]\w*\])"
)
# A variable with its sigil (``$password``, ``@password``, ``$DB_PASS``, ``$request->password``, ``%PASSWORD%``):
# a name as code writes one, lower case or capitals, never letters mixed with digits as a password mixes them.
_SIGIL_VARIABLE = re.compile(r"^[$@](?:[a-z_]+|[A-Z_][A-Z0-9_]*|[a-z_]\w*->\w+|\w+\[.*)$")
# A YAML tag in place of the value: a core type (``!!null``) or a file's secret store (``!secret db_password``).
_YAML_TAG = re.compile(r"^(?:!!(?:null|str|binary|int)|!(?:secret|env_var|include|vault|ENV))$")
# A PowerShell command that reads the value from whoever runs it or from a store (``$pw = Read-Host ...``,
# ``Get-Credential``), and a constant read from a class or module (``BuildConfig.MAPS_API_KEY``, ``settings.SECRET``):
# the value is elsewhere, filled in when the code runs or builds. The constant's name must read as one (words joined
# by underscores, or a secret's own word), so a password written ``Word.WORD`` is still a value.
_READ_ELSEWHERE = re.compile(
    r"^(?:(?:Read|Get|Import|Unprotect)-[A-Z][A-Za-z]+|(?:[A-Za-z_]\w*\.)+"
    r"(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|SECRET|PASSWORD|PASSWD|PASS|PWD|TOKEN|KEY))$"
)


# A slot with a default, in a shell (``${DB_PASSWORD:-...}``) or in Spring (``${db.password:...}``): the default is
# what is used when nothing is set, so it stands for nothing; an error (``:?``) or an alternative (``:+``) is no value.
_DEFAULT = re.compile(r"^\$\{[A-Za-z_][\w.\-]*(?::?[-=]|:(?![?+]))(?P<default>.*)\}$")


def is_placeholder(value: str) -> bool:
    """Whether ``value`` stands for a credential instead of being one."""
    if _CODE_REFERENCE.match(value.strip("\"'`")):
        return True
    stripped = value.strip("\"'`,;.:)(")
    if _STORE_SLOT.match(stripped) or _STORE_PATH.match(stripped):
        return True
    default = _DEFAULT.match(stripped)
    if default is not None:
        return is_placeholder(default["default"])
    if "{" not in stripped and "[" not in stripped:
        # a bare value read up to the end of its object or list (``{"pass": true}``) ends with the bracket
        stripped = stripped.rstrip("}]")
    if not stripped or _TEMPLATE.match(stripped) or _YAML_TAG.match(stripped) or names_a_variable(stripped):
        return True
    if _SIGIL_VARIABLE.match(stripped) or _INSTRUCTION.match(stripped) or _REFERENCE.match(stripped):
        return True
    if _READ_ELSEWHERE.match(stripped):
        return True
    words = [w for w in re.split(r"[\s_\-./]+", stripped.lower()) if w]
    return all(w in _PLACEHOLDER_WORDS or re.fullmatch(r"x+|\*+|\d", w) for w in words)
