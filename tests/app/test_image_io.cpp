// written with the image I/O
