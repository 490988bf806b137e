module example.com/typeerr

go 1.24
