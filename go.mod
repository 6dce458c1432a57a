module github.com/planls/planls

go 1.24
