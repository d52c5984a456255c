//! What an output path names: a directory-only form (refused), one of the
//! process's own descriptors (`/dev/stdout`, `/proc/self/fd/N`), a link's
//! target, or the null device, which two outputs may share.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The null device's identity, which two outputs may share.
#[cfg(unix)]
pub(super) fn null_identity() -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::metadata("/dev/null").ok()?;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
pub(super) fn null_identity() -> Option<(u64, u64)> {
    None
}

/// Fails for a path that can only name a directory: empty, ending in `/`,
/// or whose last component is `.` or `..`.
pub(super) fn check_form(path: &Path) -> io::Result<()> {
    let text = path.as_os_str().to_string_lossy();
    let last = text.rsplit('/').next().unwrap_or("");
    if matches!(last, "" | "." | "..") {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "names a directory, not a file",
        ));
    }
    Ok(())
}

/// The process's own descriptor that `path` names, if any: `/dev/stdin`,
/// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`,
/// `/proc/thread-self/fd/N` or `/proc/<own pid>/fd/N`, however spelled
/// (`/dev//stdout`, `../dev/stdout`), or a symbolic link to one of them.
/// Such a path must be written through the descriptor: opening it anew
/// would lose an append mode, and renaming over what it resolves to would
/// replace the file stdout was redirected to.
///
pub(super) fn descriptor(path: &Path) -> Option<i32> {
    /// Links followed before giving up (the kernel's own limit is 40).
    const MAX_LINKS: usize = 40;
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        if let Some(fd) = descriptor_name(&path) {
            return Some(fd);
        }
        // The same name reached through `..`, `.` or a linked directory.
        if let (Some(dir), Some(name)) = (path.parent(), path.file_name()) {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            if let Ok(dir) = fs::canonicalize(dir) {
                if let Some(fd) = descriptor_name(&dir.join(name)) {
                    return Some(fd);
                }
            }
        }
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&path).ok()?;
                path = match path.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return None,
        }
    }
    None
}

/// The descriptor a name spells directly (see [`descriptor`]).
pub(super) fn descriptor_name(path: &Path) -> Option<i32> {
    // `components` drops `.` and repeated slashes.
    let text: PathBuf = path.components().collect();
    let text = text.to_str()?;
    match text {
        "/dev/stdin" => return Some(0),
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    let own = format!("/proc/{}/fd/", std::process::id());
    let number = ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", &own]
        .iter()
        .find_map(|prefix| text.strip_prefix(prefix))?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    number.parse().ok()
}

/// The path to write for `path`: the path itself, or for a symbolic link
/// the file it points to, followed through any chain of links (a relative
/// target is relative to its link's directory), so that a dangling link
/// creates its target rather than being replaced.
pub(super) fn link_target(path: &Path) -> io::Result<PathBuf> {
    /// Links followed before giving up (the kernel's own limit is 40).
    const MAX_LINKS: usize = 40;
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        "too many levels of symbolic links",
    ))
}
