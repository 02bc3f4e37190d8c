"""``annals key``: an event's Ed25519 key pair: create it, export its public key, sign logs with it."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, out, reported
from annals.schemas import screen
from annals.schemas.commandline import quoted
from annals.schemas.files import EVENT_KEY_NAME

key_app = typer.Typer(
    help="An event's signing key: new, export, sign. Example: annals key new events/spring --name 'Spring Open'",
    no_args_is_help=True,
)
app.add_typer(key_app, name="key")

KeyOpt = typer.Option(..., "--key", help="The private key file (mode 0600).")


@key_app.command("new")
def new(
    path: Path = typer.Argument(
        ..., help=f"The private key file to create, or a folder (the key is {EVENT_KEY_NAME}; created if missing)."
    ),
    name: str = typer.Option("", "--name", help="The key's name, shown by verify with the public key file."),
) -> None:
    """Create a key pair; the private key goes to PATH with mode 0600 (an existing file is never replaced).

    Example: annals key new events/spring-open --name "Spring Open"
    """
    from annals.schemas.keys import create_key_file

    with reported():
        key = create_key_file(path, name)
    where = path / EVENT_KEY_NAME if path.is_dir() else path
    out.print(f"private key written to {where} (mode 0600; keep it out of logs and shared folders)", markup=False)
    screen.command(
        out, f"fingerprint {key.fingerprint}; export the public key with: ", f"annals key export {quoted(where)}"
    )


@key_app.command("export")
def export(
    key: Path = typer.Argument(..., help="The private key file."),
    output: Path = typer.Option(None, "--out", "-o", help="Write the public key here (PEM) instead of printing it."),
) -> None:
    """Print (or write) the public key as PEM, with its name and fingerprint, for anyone to verify logs with.

    Example: annals key export events/spring-open/event.key --out spring-open.pub
    """
    from annals.schemas.keys import load_signing_key

    with reported():
        signing = load_signing_key(key)
        pem = signing.public.pem()
        if output is not None:
            with output.open("x") as file:  # never over an existing file
                file.write(pem)
    if output is None:
        out.print(pem, markup=False, end="")
    else:
        out.print(f"public key {signing.fingerprint} written to {output}", markup=False)


@key_app.command("sign")
def sign(
    logs: list[Path] = typer.Argument(..., help="Finished game logs."),
    key: Path = KeyOpt,
) -> None:
    """Sign logs with the event's key (a signature frame appended; a log already signed last by it is left alone).

    Example: annals key sign games/*.log --key events/spring-open/event.key
    """
    from annals.schemas.keys import load_signing_key
    from annals.schemas.signing import sign_log, verify_signature

    with reported():
        signing = load_signing_key(key)
        for log in logs:
            sign_log(log, signing)
            out.print(f"{log}: {verify_signature(log, signing.public).message}", markup=False)
