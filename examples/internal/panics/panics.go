// Package panics turns the panics with which gomlx reports errors (building,
// compiling or running a graph) into error values.
package panics

import "fmt"

// Catch runs fn and returns what it panicked with as an error: the value
// itself when it is an error, else its %v text. It returns nil when fn
// returns normally.
func Catch(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("%v", r)
			}
		}
	}()
	fn()
	return nil
}
