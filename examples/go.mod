module github.com/gopct/gopct/examples

go 1.24
