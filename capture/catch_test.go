package capture

import (
	"errors"
	"testing"
)

func TestCatch(t *testing.T) {
	sentinel := errors.New("graph has no outputs")
	if err := Catch(func() {}); err != nil {
		t.Errorf("a normal return gave %v, want nil", err)
	}
	if err := Catch(func() { panic(sentinel) }); err != sentinel {
		t.Errorf("panic(error) gave %v, want the error itself", err)
	}
	if err := Catch(func() { panic("shape mismatch: 3 != 4") }); err == nil || err.Error() != "shape mismatch: 3 != 4" {
		t.Errorf("panic(string) gave %v, want its text", err)
	}
	if err := Catch(func() { panic(42) }); err == nil || err.Error() != "42" {
		t.Errorf("panic(42) gave %v, want \"42\"", err)
	}
}
