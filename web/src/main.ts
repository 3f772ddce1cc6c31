import './booking-page.css'
import { Page } from './page.ts'

const root = document.getElementById('app')
if (root) void Page.open(root).then((page) => page.start())
