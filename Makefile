# make install PREFIX=/usr/local   builds the release binary and installs it in $(PREFIX)/bin
PREFIX ?= /usr/local

.PHONY: build install test clean
build:
	swift build -c release

install: build
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 .build/release/moviecat "$(DESTDIR)$(PREFIX)/bin/moviecat"

test:
	swift test

clean:
	swift package clean
