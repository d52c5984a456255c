#!/usr/bin/env bash
# The report page in a real browser: render `batchdoku report` pages for
# data/sample.txt and for hostile inputs (empty, all invalid, one record)
# headless in Debian's chromium (installed with apt-get if missing), at a
# laptop and a phone width, and check each screenshot is not blank, that
# the browser logged no console or load error, that the page holds one
# <svg> plot per distribution, and, measured by the browser with its own
# fonts, that no two x-axis labels of a plot overlap and none runs out of
# its plot (a copy of the page with a measuring script, read back with
# --dump-dom; the page itself has no script).
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

# The x-axis tick labels of every plot, measured in the browser: prints
# "LABELS <plots> <labels> ok" or "LABELS ... overlap|clipped: ...".
measure_js='<script>
const out = [];
let plots = 0, labels = 0;
for (const svg of document.querySelectorAll("figure svg")) {
  plots++;
  const width = svg.viewBox.baseVal.width;
  const ticks = [...svg.querySelectorAll("text")].filter(t =>
    t.getAttribute("dy") === "0.76em" && t.getAttribute("text-anchor") === "middle" &&
    !t.hasAttribute("transform") && Number(t.getAttribute("y")) > 100 &&
    t.textContent.trim() !== "");
  const boxes = ticks.map(t => { const b = t.getBBox(); return [b.x, b.x + b.width, t.textContent.trim()]; })
    .sort((a, b) => a[0] - b[0]);
  labels += boxes.length;
  boxes.forEach((b, i) => {
    if (b[0] < 0 || b[1] > width) out.push("clipped: " + b[2]);
    if (i > 0 && boxes[i - 1][1] + 2 > b[0]) out.push("overlap: " + boxes[i - 1][2] + " / " + b[2]);
  });
}
const p = document.createElement("pre");
p.id = "measured";
p.textContent = "LABELS " + plots + " " + labels + " " + (out.length ? out.join("; ") : "ok");
document.body.appendChild(p);
</script>'

fail=0
check_labels() { # name, page
    local name=$1 page=$2 measured="$work/$1-measure.html"
    python3 -c 'import sys; s = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(s.replace("</body>", sys.argv[3] + "</body>"))' "$page" "$measured" "$measure_js"
    local result
    result=$(timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
        --disable-background-networking --disable-component-update --disable-sync \
        --no-first-run --user-data-dir="$work/profile-$name-measure" \
        --window-size=1280,2400 --dump-dom "file://$measured" 2>/dev/null | grep -o 'id="measured">LABELS [^<]*' | sed 's/.*>//' || true)
    echo "ci_report: $name x labels: ${result:-none measured}"
    if [[ "$result" != LABELS*" ok" ]]; then
        echo "FAIL $name: x-axis labels: ${result:-the browser measured nothing}"; fail=1
    fi
}

check_page() { # name, expected plots, report flags...
    local name=$1 expected=$2; shift 2
    local page="$work/$name.html"
    local code=0
    "$bin" report -q -o "$page" "$work/$name.txt" "$@" || code=$?
    if [[ $code -gt 1 ]]; then echo "FAIL $name: report exited $code"; fail=1; return; fi
    local plots
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
    check_labels "$name" "$page"
}

# Plots: givens, guesses and backtracks (one plot when they are identical,
# as on the empty, all-invalid and one-unique-puzzle inputs), singles, and
# best scores with --score.
check_page sample 5 --classes --score target
check_page empty 3
check_page invalid 3 --classes
check_page one 4 --score target

if [[ -n "$shot_out" ]]; then
    cp "$work/sample-1280.png" "$shot_out"
    echo "ci_report: wrote $shot_out"
fi
if [[ $fail -ne 0 ]]; then
    echo "ci_report: 0 passed, 1 failed"
    exit 1
fi
echo "ci_report: report pages render in $browser"
