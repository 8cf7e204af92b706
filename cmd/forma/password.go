package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"forma/internal/auth"
	"forma/internal/store"
)

// accountSetPassword sets an account's dashboard password and signs out its
// sessions. The password is never a flag (flags show in process listings and
// shell history): it is read from stdin, or prompted for twice, without echo,
// when stdin is a terminal.
func accountSetPassword(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return withAccount(ctx, "account set-password", args, stderr, nil, nil, func(st *store.Store, acct *store.Account) error {
		password, err := readPassword(stdin, stderr)
		if err != nil {
			return err
		}
		if problem := auth.PasswordProblem(password); problem != "" {
			return errors.New(problem)
		}
		hash, err := auth.HashPassword(password)
		if err != nil {
			return err
		}
		if err := st.SetPassword(ctx, acct.ID, hash, ""); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "password set for %s; its dashboard sessions were signed out\n", acct.Email)
		return nil
	})
}

// readPassword reads the new password: from a prompt, twice, when stdin is a
// terminal, else the first line of stdin.
func readPassword(stdin io.Reader, prompt io.Writer) (string, error) {
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return promptTwice(int(f.Fd()), prompt)
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read the password from stdin: %w", err)
	}
	return strings.TrimRight(line, "\r\n"), nil
}

func promptTwice(fd int, prompt io.Writer) (string, error) {
	var typed [2]string
	for i, label := range []string{"New password: ", "Type it again: "} {
		fmt.Fprint(prompt, label)
		b, err := term.ReadPassword(fd)
		fmt.Fprintln(prompt)
		if err != nil {
			return "", fmt.Errorf("read the password: %w", err)
		}
		typed[i] = string(b)
	}
	if typed[0] != typed[1] {
		return "", errors.New("the two passwords are not the same")
	}
	return typed[0], nil
}
