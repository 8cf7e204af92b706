package dashboard_test

import (
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"forma/internal/server/servertest"
)

// qrImage is the SVG the QR route draws, read back: its size in modules and its
// dark modules painted on a white image, scale pixels a module.
type qrImage struct {
	Modules int
	Image   *image.Gray
}

// svgDoc is the shape of the QR code's SVG.
type svgDoc struct {
	XMLName xml.Name `xml:"svg"`
	ViewBox string   `xml:"viewBox,attr"`
	Rect    struct {
		Fill string `xml:"fill,attr"`
	} `xml:"rect"`
	Path struct {
		Fill string `xml:"fill,attr"`
		D    string `xml:"d,attr"`
	} `xml:"path"`
}

// runOfModules is one rectangle of the path: a run of dark modules in a row.
var runOfModules = regexp.MustCompile(`^M(\d+) (\d+)h(\d+)v1h-(\d+)z`)

// readQR parses the SVG (strictly: it must be well-formed XML of that shape) and
// paints it.
func readQR(t *testing.T, body string, scale int) qrImage {
	t.Helper()
	var doc svgDoc
	dec := xml.NewDecoder(strings.NewReader(body))
	dec.Strict = true
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("the QR code is not well-formed SVG: %v\n%s", err, body)
	}
	var n int
	if _, err := fmt.Sscanf(doc.ViewBox, "0 0 %d %d", &n, &n); err != nil || doc.Rect.Fill != "#fff" || doc.Path.Fill != "#000" {
		t.Fatalf("unexpected SVG: viewBox %q, fills %q %q", doc.ViewBox, doc.Rect.Fill, doc.Path.Fill)
	}
	img := image.NewGray(image.Rect(0, 0, n*scale, n*scale))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	for d := doc.Path.D; d != ""; {
		m := runOfModules.FindStringSubmatch(d)
		if m == nil || m[3] != m[4] {
			t.Fatalf("unexpected path data at %.20q", d)
		}
		x, y, w := atoi(t, m[1]), atoi(t, m[2]), atoi(t, m[3])
		draw.Draw(img, image.Rect(x*scale, y*scale, (x+w)*scale, (y+1)*scale), image.Black, image.Point{}, draw.Src)
		d = d[len(m[0]):]
	}
	return qrImage{Modules: n, Image: img}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// quietZoneIsWhite reports whether the border of q, quiet modules wide, has no
// dark pixel.
func (q qrImage) quietZoneIsWhite(quiet, scale int) bool {
	inner := image.Rect(quiet*scale, quiet*scale, (q.Modules-quiet)*scale, (q.Modules-quiet)*scale)
	b := q.Image.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if !image.Pt(x, y).In(inner) && q.Image.GrayAt(x, y) != (color.Gray{Y: 255}) {
				return false
			}
		}
	}
	return true
}

// decode reads the QR code back with a decoder of its own (ZXing's port).
func (q qrImage) decode(t *testing.T) string {
	t.Helper()
	bmp, err := gozxing.NewBinaryBitmapFromImage(q.Image)
	if err != nil {
		t.Fatal(err)
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
	if err != nil {
		t.Fatalf("the QR code does not decode: %v", err)
	}
	return res.GetText()
}

// TestShareQRCode: the published editor shows the QR code of the share link
// with a download link; the SVG is well-formed, has a white quiet zone of four
// modules around a code of a QR size, and decodes to the share link. Another
// account's form has none.
func TestShareQRCode(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		s := newSurvey(t, env, key, `Quoted "title" <b>`, text)
		qr := fmt.Sprintf("/forms/%d/qr.svg", s.ID)
		p := b.get(fmt.Sprintf("/forms/%d", s.ID))
		for _, want := range []string{`<img src="` + qr + `" alt="QR code of the link to the form"`,
			`<a href="` + qr + `" download="form-` + strconv.FormatInt(s.ID, 10) + `-qr.svg">`, `data-copy="share-link" hidden>Copy link</button>`} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the editor lacks %q", want)
			}
		}
		p = b.get(qr)
		if p.Status != http.StatusOK || p.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(p.Header.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Fatalf("QR code: %d %v", p.Status, p.Header)
		}
		const scale = 4
		img := readQR(t, p.Body, scale)
		if side := img.Modules - 8; side < 21 || side > 177 || (side-21)%4 != 0 {
			t.Errorf("a code of %d modules is no QR version", side)
		}
		if !img.quietZoneIsWhite(4, scale) {
			t.Errorf("the quiet zone is not white")
		}
		if got, want := img.decode(t), env.URL+"/f/"+s.Share; got != want {
			t.Errorf("the QR code reads %q, want %q", got, want)
		}
		if strings.Contains(p.Body, "Quoted") || strings.Contains(p.Body, "<b>") {
			t.Errorf("the SVG holds the form's title")
		}
		bob, _ := signedInOwner(t, env, "bob@example.com")
		if p := bob.get(qr); p.Status != http.StatusNotFound || strings.Contains(p.Body, "<svg") {
			t.Errorf("bob's view of ada's QR code: %d", p.Status)
		}
		if p := newBrowser(t, env).get(qr); p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location, "/signin") {
			t.Errorf("a signed-out QR code: %d %s", p.Status, p.Location)
		}
	})
}
