#!/bin/sh
# Rebuild the Activity page's copy of Discord's Embedded App SDK (needs node and npm; CI and
# running the bot never do: the built module and the SDK's licence are committed).
#   sh bot/activity/sdk/build.sh
# Versions are pinned exactly in package.json; package-lock.json pins the whole tree.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../static/vendor"
cd "$here"
if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
mkdir -p "$out"
npx --no-install esbuild entry.mjs --bundle --format=esm --platform=browser --target=es2020 \
    --minify --legal-comments=none --outfile="$out/discord-sdk.mjs"
sdk=node_modules/@discord/embedded-app-sdk
version=$(node -p "require('./$sdk/package.json').version")
{
    echo "Discord's Embedded App SDK $version (@discord/embedded-app-sdk from npm), bundled"
    echo "with its dependencies by bot/activity/sdk/build.sh into discord-sdk.mjs."
    echo
    cat "$sdk/LICENSE"* 2>/dev/null || cat "$sdk/LICENSE.md"
} > "$out/LICENSE-discord-embedded-app-sdk.txt"
# licences of the packages bundled along with the SDK
for dep in $(node -e "
const seen = new Set(); const walk = (d, dir) => { let p; try { p = require(dir + '/package.json'); } catch { return; }
for (const n of Object.keys(p.dependencies || {})) { if (!seen.has(n)) { seen.add(n); walk(n, require('path').dirname(require.resolve(n + '/package.json', {paths: [dir]}))); } } };
walk('$sdk', require('path').resolve('$sdk')); console.log([...seen].join(' '));"); do
    d=node_modules/$dep
    lic=$(ls "$d"/LICEN[CS]E* "$d"/licen[cs]e* 2>/dev/null | head -1 || true)
    if [ -n "$lic" ]; then
        printf '\n\n---- %s %s ----\n\n' "$dep" "$(node -p "require('./$d/package.json').version")"
        cat "$lic"
    fi
done >> "$out/LICENSE-discord-embedded-app-sdk.txt"
ls -l "$out/discord-sdk.mjs"
