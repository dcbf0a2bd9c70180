"""Records PyTorch's output of each script next to it (scripts/<name>.torch.txt).

Run with PyTorch installed: ``/work/torchvenv/bin/python tests/pytorch_scripts/record.py [name ...]``.
Each script runs in its own process, from the repository root.
"""
import pathlib
import subprocess
import sys

SCRIPTS = pathlib.Path(__file__).parent / "scripts"

if __name__ == "__main__":
    names = sys.argv[1:] or sorted(p.stem for p in SCRIPTS.glob("*.py"))
    for name in names:
        done = subprocess.run([sys.executable, str(SCRIPTS / f"{name}.py")], capture_output=True, text=True)
        output = done.stdout
        if done.returncode:
            output += done.stderr.strip().splitlines()[-1] + "\n"
        (SCRIPTS / f"{name}.torch.txt").write_text(output)
        print(name, "ok" if done.returncode == 0 else "raised")
