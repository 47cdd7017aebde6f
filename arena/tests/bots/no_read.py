"""Never reads stdin: writes to it fill the pipe and block."""
import time

print("ready", flush=True)
time.sleep(120)
