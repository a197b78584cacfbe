// Core Image has no C declarations of its own here: its API is Swift (the CoreImage module).
