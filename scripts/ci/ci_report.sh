#!/usr/bin/env bash
# The report page in a real browser: render `batchdoku report` pages for
# data/sample.txt and for hostile inputs (empty, all invalid, one record)
# headless in Debian's chromium (installed with apt-get if missing), at a
# laptop and a phone width, and check each screenshot is not blank, that
# the browser logged no console or load error, and that the page holds one
# <svg> plot per distribution.
#
# Usage: bash scripts/ci/ci_report.sh [--screenshot PATH]
#   --screenshot PATH  also write the sample page's laptop screenshot there
#                      (how docs/report-sample.png is made).
set -euo pipefail
cd "$(dirname "$0")/../.."

shot_out=""
if [[ "${1:-}" == "--screenshot" ]]; then
    shot_out="$2"
fi

browser=""
for b in chromium chromium-browser; do
    if command -v "$b" >/dev/null 2>&1; then browser="$b"; break; fi
done
if [[ -z "$browser" ]]; then
    echo "ci_report: installing Debian's chromium"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    apt-get install -y -q chromium >/dev/null
    browser=chromium
fi
echo "ci_report: $("$browser" --version 2>/dev/null || echo "$browser")"

cargo build --release -q
bin=target/release/batchdoku
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Inputs: the sample, an empty file, only invalid records, one record.
cp data/sample.txt "$work/sample.txt"
: > "$work/empty.txt"
printf 'junk\n12345\n33.......................................................................\n' > "$work/invalid.txt"
head -n 1 data/sample.txt > "$work/one.txt"

# Counts non-white pixels of an 8-bit RGB(A) PNG (zlib only, no packages)
# and prints "<non-white share> <bar-blue share>".
png_stats() {
    python3 - "$1" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, width = 8, b'', 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        width, height, depth, ctype = struct.unpack('>IIBB', body[:10])
        assert depth == 8 and ctype in (2, 6), f'unsupported PNG {depth} {ctype}'
        bpp = 3 if ctype == 2 else 4
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride = width * bpp
prev = bytearray(stride)
nonwhite = blue = 0
i = 0
for _ in range(height):
    f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        r, g, bl = line[x], line[x + 1], line[x + 2]
        if r < 245 or g < 245 or bl < 245: nonwhite += 1
        if abs(r - 0x2f) < 24 and abs(g - 0x5f) < 24 and abs(bl - 0x98) < 24: blue += 1
    prev = line
total = width * height
print(f'{nonwhite / total:.4f} {blue / total:.4f}')
EOF
}

fail=0
check_page() { # name, report flags...
    local name=$1; shift
    local page="$work/$name.html"
    local code=0
    "$bin" report -q -o "$page" "$work/$name.txt" "$@" || code=$?
    if [[ $code -gt 1 ]]; then echo "FAIL $name: report exited $code"; fail=1; return; fi
    local plots expected=4
    [[ " $* " == *" --score "* ]] && expected=5
    plots=$(grep -o '<svg' "$page" | wc -l)
    if [[ $plots -ne $expected ]]; then
        echo "FAIL $name: $plots plots, expected $expected"; fail=1
    fi
    for size in 1280,2400 390,2400; do
        local png="$work/$name-${size%,*}.png" log="$work/$name-${size%,*}.log"
        timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
            --disable-background-networking --disable-component-update --disable-sync \
            --no-first-run --user-data-dir="$work/profile-$name-${size%,*}" \
            --enable-logging=stderr --v=0 --hide-scrollbars \
            --window-size="$size" --screenshot="$png" "file://$page" >"$log" 2>&1 || true
        if [[ ! -s "$png" ]]; then
            echo "FAIL $name @ $size: no screenshot"; sed -n 1,20p "$log"; fail=1; continue
        fi
        # Console messages and failed loads (the page has no script, so
        # any console output or network error is a fault of the page).
        if grep -E 'CONSOLE|Uncaught|Failed to load resource|net::ERR_|Refused to' "$log" >/dev/null; then
            echo "FAIL $name @ $size: browser logged errors:"
            grep -E 'CONSOLE|Uncaught|Failed to load resource|net::ERR_|Refused to' "$log" | head -5
            fail=1
        fi
        read -r ink blue < <(png_stats "$png")
        echo "ci_report: $name @ $size: $plots plots, non-white $ink, bar colour $blue"
        if ! python3 -c "import sys; sys.exit(0 if $ink > 0.01 else 1)"; then
            echo "FAIL $name @ $size: blank page"; fail=1
        fi
        if [[ $name == sample ]] && ! python3 -c "import sys; sys.exit(0 if $blue > 0.002 else 1)"; then
            echo "FAIL $name @ $size: no bars drawn"; fail=1
        fi
    done
}

check_page sample --classes --score target
check_page empty
check_page invalid --classes
check_page one --score target

if [[ -n "$shot_out" ]]; then
    cp "$work/sample-1280.png" "$shot_out"
    echo "ci_report: wrote $shot_out"
fi
if [[ $fail -ne 0 ]]; then
    echo "ci_report: 0 passed, 1 failed"
    exit 1
fi
echo "ci_report: report pages render in $browser"
