# Sourced by the scripts: installs missing Debian packages (apt-get update once, then
# install; sudo when not root) and finds the Swift toolchain.

# Everything qplay builds against or its tests and tools call.
QPLAY_BUILD_PACKAGES=(pkg-config libmpg123-dev libasound2-dev libtag1-dev libsqlite3-dev
  libflac-dev libvorbis-dev libopusfile-dev libsoxr-dev libsystemd-dev
  libavformat-dev libavcodec-dev libavutil-dev libswresample-dev libcurl4-openssl-dev
  libmp3lame-dev libopusenc-dev)
QPLAY_TOOL_PACKAGES=(sox lame libsox-fmt-mp3 strace flac vorbis-tools opus-tools ffmpeg wavpack snapserver snapclient mpd mpc ncmpcpp python3-mpd tmux tzdata
  i3blocks dbus playerctl libglib2.0-bin dunst xvfb chromium chromium-driver python3-selenium python3-pip
  icecast2 curl)

# axe-core, the accessibility rules WebPageAccessibilityTests runs in Chromium: no Debian
# package has it; PyPI's axe-playwright-python ships it as axe.min.js (axe-core 4.12.1).
# Only that file is used, so the package goes in without its dependencies, beside the
# build (scripts/lib/page_accessibility.py reads it from there).
QPLAY_AXE_PACKAGE=axe-playwright-python==0.1.8
ensure_axe() {
  local target="$1/.build/${QPLAY_AXE_PACKAGE/==/-}"
  [ -f "$target/axe_playwright_python/axe.min.js" ] && return 0
  echo "installing: $QPLAY_AXE_PACKAGE (axe.min.js only)" >&2
  /usr/bin/python3 -m pip install --quiet --no-deps --no-compile --disable-pip-version-check \
    --root-user-action=ignore --target "$target" "$QPLAY_AXE_PACKAGE" >&2
}

_qplay_apt_updated=0

ensure_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "installing: ${missing[*]}" >&2
  if [ "$_qplay_apt_updated" -eq 0 ]; then
    $sudo apt-get update -qq >&2
    _qplay_apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

ensure_swift() {
  if ! command -v swift >/dev/null 2>&1; then
    for d in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
      [ -x "$d/swift" ] && export PATH="$d:$PATH" && break
    done
  fi
  command -v swift >/dev/null 2>&1 || { echo "error: no Swift toolchain on PATH (need Swift 6)" >&2; exit 1; }
}
