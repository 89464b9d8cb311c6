// The proxy's subprocess helper (bytecode converter), compiled into the Go program.
#include "../pjrt/subprocess.c"
