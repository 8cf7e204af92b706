package dashboard

import (
	"bytes"
	"fmt"
	"image/color"
	"net/http"
	"strconv"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/qr"
)

// The QR code of a form's share link, for the editor's Share section and for
// download. github.com/boombuler/barcode/qr encodes the link into the matrix of
// modules; the SVG is drawn here from it: a white square with the quiet zone the
// standard asks for, and one path of dark modules. It holds numbers only, never
// user text, so there is nothing in it to escape.

const (
	// qrQuiet is the quiet zone around the code, in modules (ISO/IEC 18004).
	qrQuiet = 4
	// qrModulePixels is the size of a module in the SVG's width and height, for
	// viewers that honour them; the code scales without loss.
	qrModulePixels = 8
)

// qrCode serves GET /forms/{id}/qr.svg: the QR code of the form's share link,
// published or not, as an SVG image.
func (h *Handler) qrCode(w http.ResponseWriter, r *http.Request, s *Session) {
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	svg, err := qrSVG(f.ShareURL(h.cfg.PublicURL))
	if err != nil {
		serverError(w, r, "encode a QR code", err)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "image/svg+xml")
	hd.Set("Content-Disposition", `inline; filename="form-`+strconv.FormatInt(f.ID, 10)+`-qr.svg"`)
	// Opened on its own, the image may do nothing at all.
	hd.Set("Content-Security-Policy", "default-src 'none'")
	hd.Set("Cache-Control", "private, no-cache")
	_, _ = w.Write(svg)
}

// qrSVG draws the QR code of text, at error correction level M (15 % of the code
// may be damaged), as SVG.
func qrSVG(text string) ([]byte, error) {
	code, err := qr.Encode(text, qr.M, qr.Auto)
	if err != nil {
		return nil, err
	}
	n := code.Bounds().Dx()
	size := n + 2*qrQuiet
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" shape-rendering="crispEdges">`,
		size, size, size*qrModulePixels, size*qrModulePixels)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, size, size)
	for y := range n {
		for x := 0; x < n; {
			run := 0
			for x+run < n && dark(code, x+run, y) {
				run++
			}
			if run == 0 {
				x++
				continue
			}
			// One rectangle per run of dark modules in a row.
			fmt.Fprintf(&b, "M%d %dh%dv1h-%dz", x+qrQuiet, y+qrQuiet, run, run)
			x += run
		}
	}
	b.WriteString(`"/></svg>`)
	return b.Bytes(), nil
}

// dark reports whether the module at x, y of code is dark.
func dark(code barcode.Barcode, x, y int) bool {
	return color.GrayModel.Convert(code.At(x, y)).(color.Gray).Y < 128
}
