"""Signed game records: who signed a log, and every way a forger without the key gets caught."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.schemas.errors import InconsistentLogError
from annals.schemas.header import LogHeader, game_id_of
from annals.schemas.keys import (
    EVENT_KEY_NAME,
    KeyFileError,
    SignatureRecord,
    SigningKey,
    create_key_file,
    load_public_key,
    load_signing_key,
)
from annals.schemas.logfile import KIND_CLOSE, KIND_HEADER, KIND_SIGNATURE, LogWriter, read_log
from annals.schemas.signing import INVALID, SIGNED, UNSIGNED, sign_log, verify_signature
from tests.helpers import toy_log
from tests.records.tampering import edit_frame, frames_of, write_frames

runner = CliRunner()


@pytest.fixture
def event(tmp_path: Path) -> tuple[SigningKey, Path]:
    """The event's key (its private file in the event folder) and its exported public key file."""
    folder = tmp_path / "event"
    folder.mkdir()
    key = create_key_file(folder, "Spring Open")
    public = tmp_path / "spring.pub"
    result = runner.invoke(app, ["key", "export", str(folder / "event.key"), "--out", str(public)])
    assert result.exit_code == 0, result.output
    return key, public


def signed_log(directory: Path, key: SigningKey, seed: int = 1, name: str = "game.log") -> Path:
    path, _ = toy_log(directory, seed, name)
    sign_log(path, key)
    return path


def verify(path: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["verify", str(path), *args])
    return result.exit_code, result.output


def test_a_signed_log_names_its_signer_and_the_trusted_keys_name(
    tmp_path: Path, event: tuple[SigningKey, Path]
) -> None:
    key, public = event
    path = signed_log(tmp_path, key)
    code, output = verify(path, "--key", str(public))
    assert code == 0, output
    assert f"signed by Spring Open ({key.fingerprint})" in output
    code, output = verify(path)  # without a trusted key: the fingerprint, and the name the log claims
    assert code == 0 and f"signed by key {key.fingerprint} (calls itself 'Spring Open'" in output
    status = verify_signature(path, load_public_key(public))
    assert (status.state, status.ok, status.name, status.fingerprint) == (SIGNED, True, "Spring Open", key.fingerprint)


def test_signing_appends_one_frame_and_keeps_every_earlier_byte(tmp_path: Path) -> None:
    path, _ = toy_log(tmp_path)
    before = path.read_bytes()
    key = SigningKey.generate()
    sign_log(path, key)
    after = path.read_bytes()
    assert after.startswith(before) and len(after) > len(before)
    sign_log(path, key)  # already signed last by this key: left alone
    assert path.read_bytes() == after
    game = read_log(path)  # a signed log reads as the same game
    assert len(game.signatures) == 1 and game.signatures[0].record.key == key.fingerprint
    sign_log(path, None)  # no key: nothing to do
    assert path.read_bytes() == after


def test_an_unsigned_log_is_reported_and_fails_only_when_a_key_is_required(
    tmp_path: Path, event: tuple[SigningKey, Path]
) -> None:
    _, public = event
    path, _ = toy_log(tmp_path)
    code, output = verify(path)
    assert code == 0 and "unsigned" in output
    code, output = verify(path, "--key", str(public))
    assert code == 1 and "unsigned, but a signature by Spring Open" in output
    assert verify_signature(path).state == UNSIGNED


def test_an_edited_result_rechained_without_the_key_fails(tmp_path: Path, event: tuple[SigningKey, Path]) -> None:
    key, public = event
    path = signed_log(tmp_path, key)
    winner = read_log(path).close.winner

    def flip(close: dict[str, object]) -> None:
        close["winner"] = 1 - winner

    edit_frame(path, KIND_CLOSE, flip)  # the chain holds; the closing record no longer matches the game's end event
    with pytest.raises(InconsistentLogError, match="close: winner"):
        read_log(path)
    code, output = verify(path, "--key", str(public))
    assert code == 1 and "close: winner" in output


def test_an_edited_event_in_the_header_fails(tmp_path: Path, event: tuple[SigningKey, Path]) -> None:
    key, public = event
    path = signed_log(tmp_path, key)

    def rename_event(header: dict[str, object]) -> None:
        header["tournament"] = {"event": "Another Open", "round": 1, "table": 1, "match": "m1", "game": 1}

    edit_frame(path, KIND_HEADER, rename_event, which=0, rederive=True)
    assert read_log(path).header.tournament is not None  # consistent, game id and all: only the signature tells
    status = verify_signature(path, load_public_key(public))  # the game id changed with the header it derives from
    assert status.state == INVALID and "it was made for game" in status.message
    code, output = verify(path, "--key", str(public))
    assert code == 1 and "signature invalid" in output


def test_a_forger_who_rewrites_the_signed_digest_breaks_the_signature(
    tmp_path: Path, event: tuple[SigningKey, Path]
) -> None:
    """An edited close, re-chained, and the signature record's digest field set to the new chain digest: the
    Ed25519 signature is over the old one, so it no longer verifies."""
    key, public = event
    path = signed_log(tmp_path, key)
    preamble, frames = frames_of(path)
    header = msgspec.msgpack.decode(frames[0][1])
    header["players"][0]["name"] = "Mallory"  # a consistent edit: the header's own id re-derived
    header["game_id"] = game_id_of(msgspec.convert(header, LogHeader))
    frames[0] = (KIND_HEADER, msgspec.msgpack.encode(header))
    write_frames(path, preamble, frames[:-1])
    signature = msgspec.msgpack.decode(frames[-1][1])
    signature["digest"] = read_log(path).digest
    signature["game_id"] = header["game_id"]
    frames[-1] = (KIND_SIGNATURE, msgspec.msgpack.encode(signature))
    write_frames(path, preamble, frames)
    status = verify_signature(path, load_public_key(public))
    assert status.state == INVALID and "does not verify" in status.message


def test_the_signature_covers_a_sha256_of_the_bytes_not_only_the_xxh3_chain(tmp_path: Path) -> None:
    """What catches a forger who found an XXH3 collision (same chain digest, other bytes): the signed SHA-256.
    Short of a collision, the check is exercised with a record the key holder signed over another hash."""
    path, _ = toy_log(tmp_path)
    key = SigningKey.generate()
    game = read_log(path)
    end = path.stat().st_size
    unsigned = SignatureRecord(game.header.game_id, game.digest, len(frames_of(path)[1]), "00" * 32, key.fingerprint,
                               key.public.raw, b"")  # fmt: skip
    writer = LogWriter.reopen(path)
    writer.write_signature(msgspec.structs.replace(unsigned, signature=key.sign(unsigned.message())))
    writer.finish()
    status = verify_signature(path, key.public)
    assert status.state == INVALID and "not the 0000000000000000... signed" in status.message
    assert path.stat().st_size > end


def test_a_swapped_game_between_matches_is_caught_by_its_header(tmp_path: Path, event: tuple[SigningKey, Path]) -> None:
    """Two authentic signed logs of the same event: match m2's log put where match m1's should be."""
    key, public = event
    from annals.engine.registry import get_ruleset
    from annals.engine.runner import play
    from annals.engine.simulate import bots_for, make_header
    from annals.schemas.header import TournamentInfo

    toy = get_ruleset("toy")
    for match in ("m1", "m2"):
        info = TournamentInfo("Spring Open", 1, int(match[1]), match, 1)
        header = make_header(toy, 3, ["pile", "pile"], ["random", "random"], tournament=info)
        play(toy, header, bots_for(toy, header), tmp_path / f"{match}.log")
        sign_log(tmp_path / f"{match}.log", key)
    shutil.copy(tmp_path / "m2.log", tmp_path / "m1.log")  # the swap
    code, output = verify(tmp_path / "m1.log", "--key", str(public), "--expect", "match=m1", "--expect", "table=1")
    assert code == 1
    assert "the log belongs to match 'm2', not 'm1'" in output and "the log belongs to table '2', not '1'" in output
    assert f"signed by Spring Open ({key.fingerprint})" in output  # authentic, just not this match's
    # its head line does not say "ok" above the error (a judge read "ok" and stopped reading)
    assert output.splitlines()[0].startswith(f"{tmp_path / 'm1.log'}: refused, see the error below"), output
    code, output = verify(tmp_path / "m2.log", "--key", str(public), "--expect", "match=m2")
    assert code == 0, output
    assert output.splitlines()[0].startswith(f"{tmp_path / 'm2.log'}: ok ("), output


def test_a_log_signed_with_another_key_is_not_the_events(tmp_path: Path, event: tuple[SigningKey, Path]) -> None:
    _, public = event
    forger = SigningKey.generate("Spring Open")  # the same name does not help
    path = signed_log(tmp_path, forger)
    code, output = verify(path, "--key", str(public))
    assert code == 1
    assert f"signed by key {forger.fingerprint}, not by the trusted key Spring Open" in output
    assert ": refused, see the error below" in output.splitlines()[0] and ": ok (" not in output, output


def test_a_forged_signature_under_the_events_public_key_does_not_verify(
    tmp_path: Path, event: tuple[SigningKey, Path]
) -> None:
    """A forger signs with their own key but writes the event's public key and fingerprint into the record."""
    key, public = event
    path = signed_log(tmp_path, SigningKey.generate())

    def pose_as_the_event(record: dict[str, object]) -> None:
        record["key"] = key.fingerprint
        record["public_key"] = key.public.raw

    edit_frame(path, KIND_SIGNATURE, pose_as_the_event)
    status = verify_signature(path, load_public_key(public))
    assert status.state == INVALID
    assert f"the Ed25519 signature does not verify with key {key.fingerprint}" in status.message


def test_a_signature_copied_to_another_log_fails(tmp_path: Path, event: tuple[SigningKey, Path]) -> None:
    key, public = event
    a = signed_log(tmp_path, key, seed=1, name="a.log")
    b, _ = toy_log(tmp_path, seed=2, name="b.log")
    preamble, frames = frames_of(b)
    _, a_frames = frames_of(a)
    write_frames(b, preamble, [*frames, a_frames[-1]])  # a's signature frame, re-chained onto b
    game_a, game_b = read_log(a).header.game_id, read_log(b).header.game_id
    code, output = verify(b, "--key", str(public))
    assert code == 1
    assert f"it was made for game {game_a}, not this log's game {game_b}" in output


def test_a_removed_signature_fails_when_the_events_key_is_required(
    tmp_path: Path, event: tuple[SigningKey, Path]
) -> None:
    key, public = event
    path = signed_log(tmp_path, key)
    preamble, frames = frames_of(path)
    write_frames(path, preamble, frames[:-1])
    code, output = verify(path, "--key", str(public))
    assert code == 1 and "unsigned, but a signature by Spring Open" in output


def test_frames_appended_after_the_signature_are_unsigned(tmp_path: Path, event: tuple[SigningKey, Path]) -> None:
    from annals.schemas.judge import Intervention

    key, public = event
    path = signed_log(tmp_path, key)
    writer = LogWriter.reopen(path)  # anyone can append a record and re-chain: it is not covered
    writer.write_judge(Intervention("override", "nobody", winner=-1, reason="I say so"))
    writer.finish()
    code, output = verify(path, "--key", str(public))
    assert code == 1 and "is followed by 1 unsigned frame(s)" in output


def test_the_private_key_file_is_0600_never_overwritten_and_refused_when_open(tmp_path: Path) -> None:
    path = tmp_path / "event.key"
    old = os.umask(0o022)
    try:
        key = create_key_file(path, "Spring Open")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_bytes()
    with pytest.raises(KeyFileError, match="already exists; a key file is never overwritten"):
        create_key_file(path)
    assert path.read_bytes() == text
    assert load_signing_key(path).fingerprint == key.fingerprint
    path.chmod(0o644)
    with pytest.raises(KeyFileError, match="has mode 0644, readable by others; a private key must be 0600"):
        load_signing_key(path)
    result = runner.invoke(app, ["key", "sign", str(tmp_path / "x.log"), "--key", str(path)])
    assert result.exit_code == 1 and "chmod 600" in result.output
    with pytest.raises(KeyFileError, match=r"cannot read the key file .*: Not a directory"):
        load_signing_key(path / "inside-a-file.key")


def test_a_new_key_creates_its_folders(tmp_path: Path) -> None:
    """`annals key new events/spring` (the README's first key) works in an empty folder: a path without a suffix is
    a folder to hold event.key; a file path gets its missing parent folders."""
    key = create_key_file(tmp_path / "events" / "spring", "Spring Open")
    assert load_signing_key(tmp_path / "events" / "spring" / EVENT_KEY_NAME).fingerprint == key.fingerprint
    other = create_key_file(tmp_path / "keys" / "2027" / "autumn.key")
    assert load_signing_key(tmp_path / "keys" / "2027" / "autumn.key").fingerprint == other.fingerprint
    (tmp_path / "taken").write_text("not a folder\n")
    with pytest.raises(KeyFileError, match=r"cannot create the folder .*taken: File exists; choose another path"):
        create_key_file(tmp_path / "taken" / "event.key")


def test_keys_never_reach_the_log_or_the_database(tmp_path: Path) -> None:
    from annals.ingest.loader import ingest

    key = create_key_file(tmp_path / "event.key", "Spring Open")
    path = signed_log(tmp_path, key)
    private = key.private_pem()
    secret = private[private.index(b"-----BEGIN") :]
    raw_private = load_signing_key(tmp_path / "event.key")._key.private_bytes_raw()
    db = tmp_path / "annals.duckdb"
    ingest([path], db)
    for blob in (path.read_bytes(), db.read_bytes()):
        assert secret not in blob and raw_private not in blob


def test_key_commands_create_export_and_sign(tmp_path: Path) -> None:
    folder = tmp_path / "event"
    folder.mkdir()
    result = runner.invoke(app, ["key", "new", str(folder), "--name", "Spring Open"])
    assert result.exit_code == 0, result.output
    assert "mode 0600" in result.output
    result = runner.invoke(app, ["key", "export", str(folder / "event.key")])
    assert result.exit_code == 0 and "-----BEGIN PUBLIC KEY-----" in result.output
    assert "# annals key: Spring Open" in result.output and "PRIVATE" not in result.output
    path, _ = toy_log(tmp_path)
    result = runner.invoke(app, ["key", "sign", str(path), "--key", str(folder / "event.key")])
    assert result.exit_code == 0 and "signed by Spring Open" in result.output
    result = runner.invoke(app, ["key", "new", str(folder)])
    assert result.exit_code == 1 and "never overwritten" in result.output
