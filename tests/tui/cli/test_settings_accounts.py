"""``coven settings --account``: the same account ``coven serve`` signs a player in to, whatever the case typed."""

from __future__ import annotations

import io
from pathlib import Path

import asyncssh
import pytest

from saves import SessionStore, data_dir
from tui.cli import main
from tui.player_settings import read_settings
from tui.server.account_names import key_account
from tui.server.accounts import add_user, hash_password, read_password_file, signed_in_as
from tui.server.players import parse_login

PASSWORD = "correct horse"


def glyphs_of(account: str) -> object:
    """The glyphs setting the server's Coven reads for ``account``."""
    with SessionStore() as store:
        return read_settings(store, account)["glyphs"]


def test_a_password_account_is_reached_in_any_case_under_the_files_spelling(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = data_dir() / "passwords"  # where `coven serve` looks without --password-file
    add_user(path, "Ana", io.StringIO(PASSWORD + "\n"))
    assert main(["settings", "--account", "ANA", "set", "glyphs", "on"]) == 0
    # The account the server signs "ana" in to, by the password file:
    signed_in = signed_in_as(read_password_file(path), "ana", PASSWORD)
    assert signed_in is not None and glyphs_of(signed_in) is True
    assert main(["settings", "--account", "ana", "get", "glyphs"]) == 0
    out = capsys.readouterr()
    assert out.out.splitlines()[-1] == "on" and "no account" not in out.err


def test_an_account_the_password_file_lacks_folds_as_a_login_would(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settings", "--account", "BEA", "set", "glyphs", "on"]) == 0  # no password file at all
    assert glyphs_of(parse_login("Bea", accounts=True).account) is True
    add_user(data_dir() / "passwords", "cy", io.StringIO(PASSWORD + "\n"))
    assert main(["settings", "--account", "Bea", "get", "glyphs"]) == 0
    out = capsys.readouterr()
    assert out.out.splitlines()[-1] == "on"
    assert "the password file has no account 'Bea'" in out.err  # the operator hears it is no account yet


def test_a_non_ascii_name_is_not_folded() -> None:
    assert main(["settings", "--account", "ÅSA", "set", "glyphs", "on"]) == 0
    assert glyphs_of("ÅSA") is True
    assert glyphs_of("åsa") is False


def test_a_key_account_stays_as_typed(tmp_path: Path) -> None:
    account = ""
    while account == account.lower():  # a fingerprint with a capital, so folding would show
        key = asyncssh.generate_private_key("ssh-ed25519")
        account = key_account(key.get_fingerprint("sha256"))  # what the server makes of this key's holder
    # add_user refuses such a name now; an older file may still hold one, which must not capture the key's.
    spelt_alike = account.lower().replace("+", "-").replace("/", "_")
    (data_dir() / "passwords").write_text(f"{spelt_alike}:{hash_password(PASSWORD)}\n")
    assert main(["settings", "--account", account, "set", "glyphs", "on"]) == 0
    assert glyphs_of(account) is True
    assert glyphs_of(account.lower()) is False


def test_a_password_file_named_but_missing_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere" / "passwords"
    assert main(["settings", "--account", "ana", "--password-file", str(missing), "list"]) == 1
    assert str(missing) in capsys.readouterr().err
