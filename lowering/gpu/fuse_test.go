package gpu

import "testing"

// The fused call's sharding is each result's own, joined as XLA reads a
// call of two results.
func TestJoinShardings(t *testing.T) {
	for _, tc := range []struct {
		name, h, y, want string
		ok               bool
	}{
		{"mhlo.sharding", `"{manual}"`, `"{manual}"`, `"{{manual}, {manual}}"`, true},
		{"mhlo.sharding", `"{replicated}"`, `"{devices=[2,1]<=[2]}"`, `"{{replicated}, {devices=[2,1]<=[2]}}"`, true},
		{"mhlo.sharding", `"manual"`, `"{manual}"`, "", false},
		{"sdy.sharding", `#sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>`, `#sdy.sharding_per_value<[<@mesh, [{}, {}]>]>`,
			`#sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>]>`, true},
		{"sdy.sharding", `#sdy.sharding_per_value<[<@a, []>, <@a, []>]>`, `#sdy.sharding_per_value<[<@a, []>]>`, "", false},
	} {
		got, ok := joinShardings(tc.name, tc.h, tc.y)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s %s + %s = %s %v, want %s %v", tc.name, tc.h, tc.y, got, ok, tc.want, tc.ok)
		}
	}
}
