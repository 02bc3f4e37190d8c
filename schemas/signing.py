"""Signing finished game logs with an event's key, and checking a log's signature.

``sign_log`` appends a signature frame (kind ``S``) to the log itself, so a log copied alone keeps its proof. It
signs the game id, the chain digest of the last frame, the number of frames and a SHA-256 of every byte before the
signature frame (see ``schemas.keys.SignatureRecord``): an edit anywhere, even one re-chained with fresh XXH3
digests, changes that hash, and the signature cannot be made again without the private key. A judge who appends a
record to a signed log re-signs it (a new signature frame after the judge's); the last signature must then be the
last frame, or the frames after it are reported as unsigned.

``verify_signature`` checks every signature frame of a log and says, in one line, who signed it (the key's
fingerprint, and the name of a trusted key given), that it is unsigned, or why the signature is invalid.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import msgspec

from annals.schemas.keys import PublicKey, SignatureRecord, SigningKey
from annals.schemas.logfile import LogReader, LogWriter, SignatureSeen

SIGNED: Final = "signed"
UNSIGNED: Final = "unsigned"
INVALID: Final = "invalid"  # a signature that does not hold, or not by the trusted key, or frames after it


class SignatureStatus(msgspec.Struct, frozen=True):
    """What ``verify_signature`` found: ``state`` is ``signed``, ``unsigned`` or ``invalid``; ``message`` says it
    for people. ``ok`` is False for an invalid signature, and for an unsigned log when a trusted key was given."""

    state: str
    message: str
    fingerprint: str = ""  # of the signer, when the log is signed
    name: str = ""  # the trusted key's name, when the signer is the trusted key
    signatures: int = 0
    ok: bool = True


class _Read(msgspec.Struct):
    """A log read and chain-verified to its end: the reader, where its last frame ends, and the SHA-256 of the
    bytes before each signature frame and before the end."""

    reader: LogReader
    end: int
    sha256: dict[int, str]


def _read(path: Path) -> _Read:
    reader = LogReader(path)
    try:
        end = reader.read_to_end()
        hashes = reader.sha256_prefixes([s.offset for s in reader.signatures] + [end])
    except BaseException:
        reader.close()
        raise
    return _Read(reader, end, hashes)


def sign_log(path: Path, key: SigningKey | None) -> None:
    """Append ``key``'s signature over everything the log holds (``key`` None: leave the log unsigned).

    The log is verified frame by frame first; a log whose last frame is already this key's signature is left
    as it is. A game in progress can be signed too (``verify`` then says it is unfinished)."""
    if key is None:
        return
    read = _read(path)
    reader = read.reader
    last = reader.signatures[-1] if reader.signatures else None
    if last is not None and last.frame == reader.frames_read - 1 and last.record.key == key.fingerprint:
        reader.close()
        return
    unsigned = SignatureRecord(
        reader.header.game_id, reader.digest, reader.frames_read, read.sha256[read.end], key.fingerprint,
        key.public.raw, b"", key.name,
    )  # fmt: skip
    record = msgspec.structs.replace(unsigned, signature=key.sign(unsigned.message()))
    writer = LogWriter.reopen(path, read=(reader, read.end))
    writer.write_signature(record)
    writer.finish()


def _problem(seen: SignatureSeen, game_id: str, sha: str) -> str:
    """Why one signature frame does not hold, or "" when it does."""
    r = seen.record
    if r.game_id != game_id:
        return f"it was made for game {r.game_id}, not this log's game {game_id} (a signature copied from another log)"
    if (r.digest, r.frames) != (seen.digest, seen.frame):
        return (
            f"it signs {r.frames} frame(s) ending in chain digest {r.digest}, but the {seen.frame} frame(s) before "
            f"it end in {seen.digest}: the log was edited after it was signed (or the signature copied)"
        )
    try:
        public = PublicKey.from_raw(r.public_key)
    except ValueError:
        return "its public key is not an Ed25519 key (damaged or forged)"
    if public.fingerprint != r.key:
        return f"it names key {r.key} but carries key {public.fingerprint} (forged)"
    if not public.verifies(r.signature, r.message()):
        return f"the Ed25519 signature does not verify with key {r.key} (forged or damaged)"
    if sha != r.sha256:
        return (
            f"the bytes before it hash to SHA-256 {sha[:16]}..., not the {r.sha256[:16]}... signed: the log was edited "
            "and re-chained after it was signed"
        )
    return ""


def verify_signature(path: Path, trusted: PublicKey | None = None) -> SignatureStatus:
    """Check every signature frame of the log at ``path`` (read and chain-verified to its end first).

    With ``trusted`` (the event's public key), the log must be signed by that key, last frame included."""
    read = _read(path)
    read.reader.close()
    reader = read.reader
    count = len(reader.signatures)
    if not reader.signatures:
        if trusted is not None:
            return SignatureStatus(UNSIGNED, f"unsigned, but a signature by {_who(trusted)} was required", ok=False)
        return SignatureStatus(UNSIGNED, "unsigned")
    for seen in reader.signatures:
        problem = _problem(seen, reader.header.game_id, read.sha256[seen.offset])
        if problem:
            return SignatureStatus(
                INVALID, f"signature invalid (frame {seen.frame}): {problem}", seen.record.key, signatures=count,
                ok=False,
            )  # fmt: skip
    last = reader.signatures[-1]
    fingerprint = last.record.key
    if trusted is not None and fingerprint != trusted.fingerprint:
        return SignatureStatus(
            INVALID, f"signature invalid: signed by key {fingerprint}, not by the trusted key {_who(trusted)}",
            fingerprint, signatures=count, ok=False,
        )  # fmt: skip
    after = reader.frames_read - 1 - last.frame
    if after:
        return SignatureStatus(
            INVALID,
            f"signature invalid: the signature by {fingerprint} (frame {last.frame}) is followed by {after} "
            "unsigned frame(s), appended without the key; re-sign with: annals key sign LOG --key KEYFILE",
            fingerprint, signatures=count, ok=False,
        )  # fmt: skip
    name = trusted.name if trusted is not None else ""
    signer = _who(trusted) if trusted is not None else f"key {fingerprint}"
    claimed = (
        f" (calls itself {last.record.name!r}; pass --key to check it)" if trusted is None and last.record.name else ""
    )
    return SignatureStatus(SIGNED, f"signed by {signer}{claimed}", fingerprint, name, count)


def _who(key: PublicKey) -> str:
    return f"{key.name} ({key.fingerprint})" if key.name else key.fingerprint
