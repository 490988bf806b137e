#!/usr/bin/env python3
"""Lay out a module copy whose go.mod replaces modules by relative directories.

A module of a multi-module repository (go.opentelemetry.io/otel/sdk: `replace
go.opentelemetry.io/otel => ../`) does not build from its module-cache copy: the
directories it names are not there. Its copy is placed at TREE/MODULEPATH, and each
module a relative replace names is downloaded (at the version some go.mod of the
layout requires) and copied to TREE/ITS PATH, where the replace points when module
paths mirror the repository's directories (checked). Copies are made writable; the
downloaded modules' files are not changed.

Usage: layout.py TREE MODULEDIR   (MODULEDIR: the main copy, TREE/MODULEPATH)
"""
import json
import os
import shutil
import subprocess
import sys


def gomod(d):
    out = subprocess.run(["go", "mod", "edit", "-json"], cwd=d, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    tree, main_dir = sys.argv[1], sys.argv[2]
    m = gomod(main_dir)
    reps = {}
    for r in m.get("Replace") or []:
        p = r["New"]["Path"]
        if p.startswith("./") or p.startswith("../") or p in (".", ".."):
            reps[r["Old"]["Path"]] = os.path.normpath(os.path.join(main_dir, p))
    placed = {m["Module"]["Path"]: main_dir}
    while True:
        # Versions: the requirements of every go.mod placed so far.
        want = {}
        for d in placed.values():
            for q in gomod(d).get("Require") or []:
                want.setdefault(q["Path"], q["Version"])
        todo = [p for p in reps if p not in placed and p in want]
        if not todo:
            break
        for p in todo:
            dest = reps[p]
            if dest != os.path.normpath(os.path.join(tree, p)):
                sys.exit("layout: %s => %s is not where its module path puts it" % (p, dest))
            info = json.loads(subprocess.run(
                ["go", "mod", "download", "-json", p + "@" + want[p]], cwd=tree,
                env=dict(os.environ, GOFLAGS="-mod=mod"), check=True,
                capture_output=True, text=True).stdout)
            os.makedirs(dest, exist_ok=True)
            shutil.copytree(info["Dir"], dest, dirs_exist_ok=True)
            subprocess.run(["chmod", "-R", "u+w", dest], check=True)
            placed[p] = dest
            print("layout: %s@%s at %s" % (p, want[p], os.path.relpath(dest, tree)), file=sys.stderr)


if __name__ == "__main__":
    main()
