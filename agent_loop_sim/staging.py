"""Writing a folder of files all or nothing: made in a new temporary folder beside the output, moved
into place at the end, and never through a symbolic link.

`write_tree` is how a command writes many files (``site OUTDIR``'s pages): a full disk, a name the
file system refuses or a signal while writing leaves the output folder as it was (the temporary
folder goes), and a folder under the output that is a symbolic link (``OUTDIR/exports ->
recordings/``) is refused before anything is made, so no file lands outside the output folder.
"""
from __future__ import annotations

import os
import shutil
import stat
import tempfile
from pathlib import Path

from .errors import InputError
from .jsonio import _kind, check_output

STAGING_PREFIX = ".agent-loop-sim-staging-"


def check_tree(outdir: Path, paths: list[str]) -> None:
    """Refuse, before anything is written, a file of ``paths`` (relative to ``outdir``) that cannot
    go in place: a folder on its way that is a symbolic link (it would lead out of the output
    folder), a file or other node where a folder must be, or a folder, FIFO, device or link where
    the file goes. Raises `InputError` naming the path."""
    check_output(outdir, folder=True)  # (the output folder itself may be a link: the user named it)
    seen: set[Path] = {outdir}  # (folders already found to be real folders)
    for path in paths:
        target = outdir / path
        for at in [*reversed(target.relative_to(outdir).parents), None]:
            here = target if at is None else outdir / at
            if here in seen:
                continue
            try:
                mode = os.lstat(here).st_mode
            except FileNotFoundError:
                break  # the rest of the way is made afresh, in the staging folder
            except OSError as exc:
                raise InputError(f"the output cannot be written ({exc.strerror})", file=str(here)) from None
            if stat.S_ISLNK(mode):
                raise InputError(f"a symbolic link (to {os.readlink(here)}) where the output has a "
                                 f"{'file' if at is None else 'folder'}: nothing is written through a link, which may "
                                 f"lead out of the output folder", file=str(here))
            if at is None:
                if not stat.S_ISREG(mode):
                    raise InputError(f"the output is {_kind(mode)}, not a regular file", file=str(here))
            elif not stat.S_ISDIR(mode):
                kind = "a file" if stat.S_ISREG(mode) else _kind(mode)
                raise InputError(f"the output path holds {kind} here, not a folder", file=str(here))
            else:
                seen.add(here)


def write_tree(outdir: Path, files: dict[str, str], durable: bool = False) -> None:
    """Write ``files`` (path relative to ``outdir`` -> text) under ``outdir``, all or none.

    Every file is written in a new folder made in the nearest folder of ``outdir`` that exists
    (the same file system, so the move is a rename); only when all are written are they moved
    into place: what ``outdir`` lacks is renamed in whole (a new ``outdir`` in one rename), a file
    it has is replaced by a rename. An `OSError` while writing (no space, a name too long, no
    permission) is one `InputError`; ``outdir`` is then as it was. ``durable``: each file synced
    to the disk before the move (committed files; a site can be made again)."""
    check_tree(outdir, list(files))
    anchor = next(p for p in (outdir, *outdir.parents) if p.exists())
    remove_stale_staging(anchor)
    try:
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=anchor))
    except OSError as exc:
        raise InputError(f"the output cannot be written ({exc.strerror})", file=str(anchor)) from None
    try:
        root = staging / outdir.relative_to(anchor)
        try:
            for path, text in files.items():
                target = root / path
                target.parent.mkdir(parents=True, exist_ok=True)
                with open(target, "x", encoding="utf-8", newline="\n") as handle:
                    handle.write(text)
                    if durable:
                        handle.flush()
                        os.fsync(handle.fileno())
        except OSError as exc:
            raise InputError(f"the output cannot be written ({exc.strerror})", file=str(outdir)) from None
        check_tree(outdir, list(files))  # again: what changed in the output while the files were written
        try:
            _move_into(staging, anchor)
        except OSError as exc:  # (only a race with another writer of the output folder gets here)
            raise InputError(f"the output cannot be moved into place ({exc.strerror})", file=str(outdir)) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _move_into(source: Path, target: Path) -> None:
    """Move what ``source`` holds into the folder ``target``: an entry ``target`` lacks by one
    rename (a whole folder at once); a folder it has, entry by entry; a file it has, replaced."""
    for entry in os.scandir(source):
        there = target / entry.name
        try:
            mode = os.lstat(there).st_mode
        except FileNotFoundError:
            os.rename(entry.path, there)
            continue
        if entry.is_dir(follow_symlinks=False) and stat.S_ISDIR(mode):
            _move_into(Path(entry.path), there)
        else:
            os.replace(entry.path, there)  # (a regular file, as `check_tree` found: the rename replaces it)


def remove_stale_staging(folder: Path, older_than: float = 600.0) -> None:
    """Remove a staging folder a killed writer (SIGKILL) left in ``folder``, once it is older than
    any live writer's."""
    import time

    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            if (entry.name.startswith(STAGING_PREFIX) and entry.is_dir(follow_symlinks=False)
                    and time.time() - entry.stat(follow_symlinks=False).st_mtime > older_than):
                shutil.rmtree(entry.path, ignore_errors=True)
        except OSError:
            pass
