"""Event key pairs: Ed25519 keys that sign finished game logs, their files and fingerprints.

An event has one key pair. The private key lives in one file, PKCS#8 PEM, created with mode 0600 and never
overwritten; it is never written into a log or the database. The public key is exported as PEM (with the key's
name on a comment line before the PEM block) so that anyone can check a published log, and is named in reports by
its fingerprint: ``ed25519:`` and the first 16 bytes of the SHA-256 of the raw 32-byte key, in hex.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> key = create_key_file(folder / "event.key", "Spring Open")
>>> load_signing_key(folder / "event.key").fingerprint == key.fingerprint
True
>>> oct((folder / "event.key").stat().st_mode & 0o777)
'0o600'
>>> public = folder / "event.pub"
>>> _ = public.write_text(key.public.pem())
>>> load_public_key(public).name, load_public_key(public) == key.public
('Spring Open', True)
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Final

import msgspec
from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from annals.schemas.commandline import quoted
from annals.schemas.errors import AnnalsError
from annals.schemas.files import EVENT_KEY_NAME as EVENT_KEY_NAME  # the private key's file in an event folder
from annals.schemas.files import PathError, read_regular

KEY_FILE_MODE: Final = 0o600
MAX_KEY_BYTES: Final = 64 << 10  # a PEM Ed25519 key is a few hundred bytes
NAME_PREFIX: Final = "# annals key: "


class KeyFileError(AnnalsError, ValueError):
    """A key file is missing, unreadable, of the wrong kind, or too open."""


class SignatureRecord(msgspec.Struct, frozen=True):
    """The payload of a signature frame: what was signed, by which public key, and the signature.

    The signed message is ``SIGNED_TAG`` and the msgpack of ``[game_id, digest, frames, sha256, key]``: the
    game id, the chain digest of the last frame before this one (hex), how many frames precede it, the SHA-256 of
    every byte of the file before this frame (hex: header, events, closing record and chain links), and the
    signer's fingerprint. A cryptographic hash of the bytes is signed, not the XXH3 chain alone, which guards
    against damage and not forgery.
    """

    game_id: str
    digest: str
    frames: int
    sha256: str
    key: str  # the signer's fingerprint
    public_key: bytes  # raw 32 bytes, so that a log names its signer without a key file
    signature: bytes  # 64 bytes of Ed25519
    name: str = ""  # the key's name as its holder gave it (informative: a trusted key file's name is what counts)

    def message(self) -> bytes:
        return SIGNED_TAG + msgspec.msgpack.encode([self.game_id, self.digest, self.frames, self.sha256, self.key])


SIGNED_TAG: Final = b"annals log signature v1\x00"


def fingerprint_of(raw: bytes) -> str:
    return "ed25519:" + hashlib.sha256(raw).hexdigest()[:32]


class PublicKey:
    """An Ed25519 public key with the name its holder gave it."""

    def __init__(self, key: Ed25519PublicKey, name: str = ""):
        self.key = key
        self.name = name
        self.raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.fingerprint = fingerprint_of(self.raw)

    @classmethod
    def from_raw(cls, raw: bytes, name: str = "") -> PublicKey:
        return cls(Ed25519PublicKey.from_public_bytes(raw), name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PublicKey) and other.raw == self.raw

    def __hash__(self) -> int:
        return hash(self.raw)

    def verifies(self, signature: bytes, message: bytes) -> bool:
        try:
            self.key.verify(signature, message)
        except InvalidSignature:
            return False
        return True

    def pem(self) -> str:
        """The public key as PEM, after a comment line naming it (PEM readers skip text before the block)."""
        block = self.key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        comment = f"{NAME_PREFIX}{self.name}\n" if self.name else ""
        return comment + f"# fingerprint: {self.fingerprint}\n" + block.decode()


class SigningKey:
    """An Ed25519 private key and its name; ``public`` is what verifiers are given."""

    def __init__(self, key: Ed25519PrivateKey, name: str = ""):
        self._key = key
        self.public = PublicKey(key.public_key(), name)
        self.name = name
        self.fingerprint = self.public.fingerprint

    @classmethod
    def generate(cls, name: str = "") -> SigningKey:
        return cls(Ed25519PrivateKey.generate(), name)

    def sign(self, message: bytes) -> bytes:
        return self._key.sign(message)

    def __repr__(self) -> str:  # never the key itself
        return f"SigningKey({self.fingerprint}, name={self.name!r})"

    def private_pem(self) -> bytes:
        block = self._key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        comment = f"{NAME_PREFIX}{self.name}\n".encode() if self.name else b""
        return comment + block


def _name_in(text: bytes) -> str:
    for line in text.decode(errors="replace").splitlines():
        if line.startswith(NAME_PREFIX):
            return line.removeprefix(NAME_PREFIX).strip()
    return ""


def create_key_file(path: Path, name: str = "") -> SigningKey:
    """A new key pair; the private key written to ``path`` with mode 0600. A folder (one that exists, or a new path
    without a suffix such as ``events/spring``) gets ``EVENT_KEY_NAME`` in it; missing folders are created. An
    existing file is never replaced."""
    key = SigningKey.generate(name)
    if path.is_dir() or (not path.exists() and not path.suffix):
        path = path / EVENT_KEY_NAME
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise KeyFileError(f"cannot create the folder {path.parent}: {exc.strerror}; choose another path") from None
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, KEY_FILE_MODE)
    except FileExistsError:
        raise KeyFileError(
            f"{path} already exists; a key file is never overwritten (its logs would no longer verify): "
            "choose another path, or use the existing key"
        ) from None
    with os.fdopen(fd, "wb") as file:
        os.fchmod(file.fileno(), KEY_FILE_MODE)  # whatever the umask
        file.write(key.private_pem())
    return key


def load_signing_key(path: Path) -> SigningKey:
    """The private key in ``path``; refused when others may read the file (mode must be 0600 or stricter)."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        data = read_regular(path, what="key", max_bytes=MAX_KEY_BYTES)
    except FileNotFoundError:
        missing = KeyFileError(f"no key file at {path}; create one with: annals key new {quoted(path)}")
        raise missing.about(path) from None
    except PathError as exc:  # a FIFO, a device, a folder, or far too big for a key
        raise KeyFileError(str(exc)) from None
    except OSError as exc:
        raise KeyFileError(f"cannot read the key file {path}: {exc.strerror}").about(path) from None
    if mode & 0o077:
        raise KeyFileError(
            f"{path} has mode {mode:04o}, readable by others; a private key must be 0600: chmod 600 {path}"
        )
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm) as exc:
        raise KeyFileError(f"{path} is not an unencrypted PEM private key ({exc})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"{path} holds a {type(key).__name__}, not an Ed25519 key; annals signs with Ed25519")
    return SigningKey(key, _name_in(data))


def load_public_key(path: Path) -> PublicKey:
    """A public key file written by ``annals key export`` (or any Ed25519 SubjectPublicKeyInfo PEM)."""
    try:
        data = read_regular(path, what="public key", max_bytes=MAX_KEY_BYTES)
    except FileNotFoundError:
        missing = KeyFileError(f"no public key file at {path}; export one with: annals key export KEYFILE")
        raise missing.about(path) from None
    except PathError as exc:
        raise KeyFileError(str(exc)) from None
    except OSError as exc:
        raise KeyFileError(f"cannot read the public key file {path}: {exc.strerror}").about(path) from None
    start = data.find(b"-----BEGIN")
    try:
        key = serialization.load_pem_public_key(data[max(start, 0) :])
    except (ValueError, TypeError, UnsupportedAlgorithm) as exc:
        hint = " (that is a private key: export its public half with annals key export)" if b"PRIVATE" in data else ""
        raise KeyFileError(f"{path} is not a PEM public key{hint} ({exc})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise KeyFileError(f"{path} holds a {type(key).__name__}, not an Ed25519 key; annals signs with Ed25519")
    return PublicKey(key, _name_in(data))
