"""Start the Yili QA chat: ``python app.py [--host H] [--port P]`` (127.0.0.1:7860 by default)."""

import sys

from qa.webapp import main

if __name__ == "__main__":
    sys.exit(main())
