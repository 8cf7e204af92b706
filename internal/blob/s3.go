package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3 is a Store in a bucket of an S3-compatible service (AWS S3, MinIO,
// versitygw, SeaweedFS, Garage…), so that every node of a cluster sees every file.
// Files are still served through Forma's signed links: the bucket stays private.
type S3 struct {
	client *minio.Client
	bucket string
	prefix string
}

// s3PartSize bounds the memory one upload of unknown length takes: minio-go
// buffers one part at a time.
const s3PartSize = 5 << 20

// NewS3 returns a Store for an s3:// URL:
//
//	s3://bucket/optional/prefix?endpoint=https://host:port&region=eu-west-1
//
// The endpoint defaults to AWS (s3.amazonaws.com); its scheme chooses TLS
// (http:// is for a server on the same host or network only). Credentials come
// from the usual AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN
// environment variables.
func NewS3(rawURL string) (*S3, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "s3" || u.Host == "" {
		return nil, fmt.Errorf("blob URL must look like s3://bucket/prefix?endpoint=…&region=…")
	}
	q := u.Query()
	for name := range q {
		if name != "endpoint" && name != "region" {
			return nil, fmt.Errorf("blob URL: unknown option %q (allowed: endpoint, region)", name)
		}
	}
	host, secure, err := s3Endpoint(q.Get("endpoint"))
	if err != nil {
		return nil, err
	}
	client, err := minio.New(host, &minio.Options{
		Creds:  credentials.NewEnvAWS(),
		Secure: secure,
		Region: q.Get("region"),
	})
	if err != nil {
		return nil, fmt.Errorf("blob URL: %w", err)
	}
	prefix := strings.Trim(u.Path, "/")
	if prefix != "" {
		prefix += "/"
	}
	return &S3{client: client, bucket: u.Host, prefix: prefix}, nil
}

// s3Endpoint splits an endpoint option into host[:port] and whether it uses TLS.
func s3Endpoint(endpoint string) (host string, secure bool, err error) {
	if endpoint == "" {
		return "s3.amazonaws.com", true, nil
	}
	e, err := url.Parse(endpoint)
	if err != nil || (e.Scheme != "http" && e.Scheme != "https") || e.Host == "" || (e.Path != "" && e.Path != "/") {
		return "", false, fmt.Errorf("blob URL: endpoint must be http(s)://host[:port], got %q", endpoint)
	}
	return e.Host, e.Scheme == "https", nil
}

// Check reports whether the bucket exists and can be reached with the credentials.
func (s *S3) Check(ctx context.Context) error {
	ok, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("reach bucket %q: %w", s.bucket, err)
	}
	if !ok {
		return fmt.Errorf("bucket %q does not exist", s.bucket)
	}
	return nil
}

func (s *S3) object(key string) (string, error) {
	if !validKey.MatchString(key) {
		return "", fmt.Errorf("invalid blob key %q", key)
	}
	return s.prefix + key, nil
}

// Put uploads the content of r: in one request when it fits in one part, in a
// multipart upload otherwise. An S3 object appears whole or not at all, so a failed
// read leaves nothing behind.
func (s *S3) Put(ctx context.Context, key string, r io.Reader) error {
	name, err := s.object(key)
	if err != nil {
		return err
	}
	// Read up to one part first, into a buffer only as large as the file when it
	// is smaller: a small upload does not cost a whole part's memory.
	var head bytes.Buffer
	size, err := head.ReadFrom(io.LimitReader(r, s3PartSize))
	if err != nil {
		return err
	}
	body := io.Reader(&head)
	if size == s3PartSize {
		body, size = io.MultiReader(&head, r), -1
	}
	_, err = s.client.PutObject(ctx, s.bucket, name, body, size,
		minio.PutObjectOptions{ContentType: "application/octet-stream", PartSize: s3PartSize})
	return err
}

// Open returns the object's content; ErrNotFound when there is none.
func (s *S3) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	name, err := s.object(key)
	if err != nil {
		return nil, err
	}
	obj, err := s.client.GetObject(ctx, s.bucket, name, minio.GetObjectOptions{})
	if err != nil {
		return nil, notFound(err)
	}
	// GetObject is lazy: Stat makes the request, so a missing key shows here.
	if _, err := obj.Stat(); err != nil {
		obj.Close()
		return nil, notFound(err)
	}
	return obj, nil
}

// Delete removes the object; S3 answers success for a missing key too.
func (s *S3) Delete(ctx context.Context, key string) error {
	name, err := s.object(key)
	if err != nil {
		return err
	}
	return s.client.RemoveObject(ctx, s.bucket, name, minio.RemoveObjectOptions{})
}

// notFound turns S3's NoSuchKey into ErrNotFound.
func notFound(err error) error {
	if minio.ToErrorResponse(err).Code == "NoSuchKey" {
		return fmt.Errorf("%w: %v", ErrNotFound, err)
	}
	return err
}

// Open maps a blob URL to its Store: an s3:// URL to S3, anything else is an error;
// an empty URL means the folder dir on disk.
func Open(blobURL, dir string) (Store, error) {
	if blobURL == "" {
		return NewDisk(dir)
	}
	if strings.HasPrefix(blobURL, "s3://") {
		return NewS3(blobURL)
	}
	return nil, errors.New("blob URL must start with s3:// (or be empty for the data folder)")
}
