module aliastest

go 1.26
