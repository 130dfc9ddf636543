package sha256x_test

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"fmt"

	"github.com/sha256x/sha256x"
)

// A resumable upload: the state saved after one request by crypto/sha256
// resumes in sha256x for the next, and the other way round.
func ExampleDigest_UnmarshalBinary() {
	h := sha256.New()
	h.Write([]byte("part one, "))
	state, _ := h.(encoding.BinaryMarshaler).MarshalBinary()

	d := sha256x.New()
	if err := d.(encoding.BinaryUnmarshaler).UnmarshalBinary(state); err != nil {
		panic(err)
	}
	d.Write([]byte("part two"))

	want := sha256.Sum256([]byte("part one, part two"))
	fmt.Println(bytes.Equal(d.Sum(nil), want[:]))
	// Output: true
}
