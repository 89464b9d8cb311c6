// The proxy's C core, compiled into the Go program (cgo builds only the .c files of a package's own directory).
#include "../pjrt/proxy.c"
