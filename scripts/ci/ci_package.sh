#!/usr/bin/env bash
# CI check that the crates publish: `cargo publish --dry-run --workspace` packages batchdoku-core, batchdoku-rate,
# batchdoku-batch and batchdoku (publish order; python/ is not published to crates.io, `publish = false`) as
# crates.io would get them, each .crate resolved against the others' .crate files (not against crates.io, where
# they are not yet), checks every manifest (a version beside each path dependency, readme and licence present) and
# builds each crate from its unpacked .crate (a debug build of the libraries and the binary, not their tests). Then,
# on the unpacked crates: each holds its README and its licence files as regular files (links resolved), and no
# packaged source reaches a path outside its crate (`include_str!("../..")`, `CARGO_MANIFEST_DIR` + "/../"), except
# the maintainers' optional data in ../shared/ (outside the repository: ignored tests, fallbacks, env overrides).
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
# Cargo unpacks the .crate files of the overlay registry it resolves them from into $CARGO_HOME/registry/src/,
# under a directory named after the registry's path, and reuses an unpacked crate of the same name and version
# there: a checkout at the same path as an earlier run would build against the earlier run's sources. Our crates
# are nowhere else (not on crates.io), so their unpacked copies are removed first.
CARGO_HOME_DIR=${CARGO_HOME:-$HOME/.cargo}
VERSION_NOW=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
for unpacked in "$CARGO_HOME_DIR"/registry/src/*/batchdoku-{core,rate,batch}-"$VERSION_NOW" \
  "$CARGO_HOME_DIR"/registry/src/*/batchdoku-"$VERSION_NOW"; do
  case $unpacked in
    */index.crates.io-*) ;; # crates.io's own: never ours
    *) if [ -d "$unpacked" ]; then rm -rf "$unpacked"; fi ;;
  esac
done
# --allow-dirty: a maintainer runs .ci/run before committing; the package is what the tree holds.
cargo publish --dry-run --workspace --exclude batchdoku-python --locked --allow-dirty --quiet
packaged=$(date +%s)
PACKAGE_DIR="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/package"
VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
python3 - "$PACKAGE_DIR" "$VERSION" <<'EOF'
import re, sys, tarfile
from pathlib import Path, PurePosixPath
package_dir, version = Path(sys.argv[1]), sys.argv[2]
# What each crate must hold besides its sources: its README and the texts of its licence.
must_hold = {
    "batchdoku-core": ["README.md", "LICENSE-MIT", "LICENSE-APACHE"],
    "batchdoku-rate": ["README.md", "LICENSE-LGPL-2.1", "NOTICE", "benches/sample.txt"],
    "batchdoku-batch": ["README.md", "LICENSE-MIT", "LICENSE-APACHE"],
    "batchdoku": ["README.md", "LICENSE-MIT", "LICENSE-APACHE", "CHANGELOG.md"],
}
# A path literal that starts from a directory: "../x" or "/../x" (after CARGO_MANIFEST_DIR).
literal = re.compile(r'"(/?\.\./[^"]*)"')
include = re.compile(r'include_(?:str|bytes)!\(\s*"([^"]*)"')
failures = []
for crate, files in must_hold.items():
    root = PurePosixPath(f"{crate}-{version}")
    # `cargo publish --dry-run --workspace` leaves the .crate files in tmp-crate/, `cargo package` beside it.
    packaged = [d / f"{crate}-{version}.crate" for d in (package_dir / "tmp-crate", package_dir)]
    with tarfile.open(next((p for p in packaged if p.is_file()), packaged[0])) as tar:
        members = {PurePosixPath(m.name): m for m in tar.getmembers()}
        for name in files:
            m = members.get(root / name)
            if m is None or not m.isfile():
                failures.append(f"{crate}: {name} is missing or not a regular file")
        for path, m in members.items():
            if not (m.isfile() or m.isdir()):
                failures.append(f"{crate}: {path} is neither a regular file nor a directory")
            if path.suffix != ".rs":
                continue
            text = tar.extractfile(m).read().decode()
            inside = path.relative_to(root)
            for lineno, line in enumerate(text.splitlines(), 1):
                if line.lstrip().startswith("//"):
                    continue
                targets = [(PurePosixPath(*inside.parts[:-1]) / p) for p in include.findall(line)]
                targets += [PurePosixPath(p.lstrip("/")) for p in literal.findall(line) if "include_" not in line]
                for target in targets:
                    depth = 0
                    for part in target.parts:
                        depth += -1 if part == ".." else (0 if part == "." else 1)
                        if depth < 0:
                            break
                    if depth < 0 and "shared/" not in str(target):
                        failures.append(f"{crate}: {inside}:{lineno} reaches outside the crate: {target}")
if failures:
    print("ci_package:\n  " + "\n  ".join(failures), file=sys.stderr)
    sys.exit(1)
print(f"ci_package: {len(must_hold)} crates hold their README and licence files, no source reaches outside its crate")
EOF
end=$(date +%s)
echo "ci_package: packaged and built from the .crate files in $((packaged - start)) s, contents checked in $((end - packaged)) s"
