# lit configuration for irgit's own lit tests: LLVM-style test files (RUN and
# CHECK lines, notes, trailing comments) that the comment model, the hook and
# the merge must keep intact. Run with Debian's llvm-22-tools:
#   /usr/lib/llvm-22/bin/lit tests/lit
import os

import lit.formats

config.name = "irgit-lit"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".ll"]
config.test_source_root = os.path.dirname(__file__)
# Output/ directories go where the caller says (the Rust tests run lit on a
# copy in a temporary directory, so the source tree is never written to).
config.test_exec_root = lit_config.params.get("exec_root", config.test_source_root)
llvm_bin = lit_config.params.get("llvm_bin", "/usr/lib/llvm-22/bin")
config.environment["PATH"] = os.pathsep.join(
    [llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))]
)
