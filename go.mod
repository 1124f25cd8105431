module github.com/fitclaim/fitclaim

go 1.26
