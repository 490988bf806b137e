module github.com/gopct/gopct/corpus

go 1.24
