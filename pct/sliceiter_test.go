package pct

import "testing"

// BenchmarkSliceWalk: a range loop over 1,000 ints natively and as the
// instrumenter rewrites it (sliceiter.go), with the loop's site inactive (a
// variable other than the slice's is tracked); per element.
func BenchmarkSliceWalk(b *testing.B) {
	xs := make([]int, 1000)
	for i := range xs {
		xs[i] = i
	}
	saved := gate[sR]
	gate[sR] = false
	defer func() { gate[sR] = saved }()
	b.Run("native", func(b *testing.B) {
		n := 0
		for b.Loop() {
			for _, x := range xs {
				n += x
			}
		}
		sink = n
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(xs)), "ns/elem")
	})
	b.Run("walk", func(b *testing.B) {
		n := 0
		for b.Loop() {
			for s, m, j, _, x := SliceWalk(xs); j < m; j++ {
				x = RangeLoad(sR, &s[j])
				n += x
			}
		}
		sink = n
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(xs)), "ns/elem")
	})
}
